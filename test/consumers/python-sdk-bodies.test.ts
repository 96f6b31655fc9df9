// covers: sandbox/core/service.ts, sandbox/core/memory-storage.ts, sandbox/sqlite-storage.ts, sandbox/fake.ts, openapi/components/schemas/UpdateFileRequest.yaml
// The official Python SDK's update bodies (test/fixtures/python-sdk-bodies.ts, read from its source at each version
// line), sent byte for byte with its headers: the sandbox on both storages and the fake take each with 200 and store
// what docs/decisions.md, D05, says: an omitted or null field keeps its value, publicUrl is any string.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PYTHON_SDK_BODIES, PYTHON_START, pythonSdkHeaders } from "../fixtures/python-sdk-bodies.ts";
import { sendUpdate, startTarget, type LibraryTarget, type TargetKind } from "../support/library-targets.ts";

/** One file per body, all alike before the update, so that each case stands alone. */
const idOf = (index: number) => `python-sdk-${index}`;
const FILE = { name: "einstein.txt", content: "E = mc^2", created_at: "2026-01-02T03:04:05.000Z" };
const files = PYTHON_SDK_BODIES.map((_, index) => ({
  id: idOf(index),
  ...FILE,
  labels: [...PYTHON_START.labels],
  publicUrl: PYTHON_START.publicUrl,
}));

const KINDS: TargetKind[] = ["sandbox (memory)", "sandbox (SQLite)", "fake (fetch)"];

describe.each(KINDS)("the Python SDK's update bodies against the %s", { timeout: 30_000 }, (kind) => {
  let target: LibraryTarget;
  beforeAll(async () => {
    target = await startTarget(kind, files);
  });
  afterAll(() => target?.close());

  PYTHON_SDK_BODIES.forEach((sent, index) => {
    it(`${sent.name}: 200, and the file holds the fields sent, the others kept`, async () => {
      const answer = await sendUpdate(target, idOf(index), sent.body, pythonSdkHeaders(sent.tag));
      expect(answer.status, `${sent.body} was answered ${answer.status} ${answer.text}`).toBe(200);
      // Every other member as it was, and none added: the body's other members are not stored.
      expect(await target.stored(idOf(index))).toEqual({
        id: idOf(index),
        name: FILE.name,
        size: 8,
        created_at: FILE.created_at,
        ...sent.stored,
      });
    });
  });
});
