// covers: sandbox/core/service.ts, sandbox/core/memory-storage.ts, sandbox/sqlite-storage.ts, sandbox/fake.ts, sandbox/node-adapter.ts, contract-tests/proxy/start-proxy.ts, scripts/lib/prism.ts
// The service's official TypeScript SDK (npm `ai21` 1.1.0) as a real client: `files.get` and every form of
// `files.update` against the sandbox on both storages, the fake, the Prism mock, and the contract proxy in front of
// the sandbox. The SDK PUTs the whole object it is given (`fileId` included, `null` kept), and
// docs/decisions.md, D05, has the service ignore other members and take `null` as "not given": each update
// is a 200, and a get shows the stored values. In Node the SDK calls node-fetch, not the global fetch, and its
// constructor takes no fetch of ours: every target is a real local server. Its `maxRetries` and `timeout` options are
// checked but unused in 1.1.0 (no retry, no timer): an error answer throws at once.
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AI21, type UpdateFileRequest } from "ai21";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxy } from "../../contract-tests/index.ts";
import type { ServerProcess } from "../../lib/process.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";
import { startPrism } from "../../scripts/lib/prism.ts";
import { startTarget, type LibraryTarget, type TargetKind } from "../support/library-targets.ts";
import { ensureBundle, SANDBOX_KEY } from "../support/sandbox.ts";

const START = { labels: ["a", "b"], publicUrl: "https://cdn.example.test/start.pdf" };
const FILE = { name: "report.txt", content: "hello", created_at: "2026-01-02T03:04:05.000Z" };
/** The metadata of a file of FILES as the spec shapes it, with these labels and publicUrl. */
const metadata = (id: string, fields: { labels: string[]; publicUrl: string }) => ({
  id,
  name: FILE.name,
  size: 5,
  created_at: FILE.created_at,
  ...fields,
});

/** Every form of update the SDK's `UpdateFileRequest` allows, and what the file holds after it (from START). */
const UPDATES: {
  form: string;
  params: Omit<UpdateFileRequest, "fileId">;
  stored: { labels: string[]; publicUrl: string };
}[] = [
  { form: "labels only", params: { labels: ["q3", "finance"] }, stored: { ...START, labels: ["q3", "finance"] } },
  {
    form: "publicUrl only",
    params: { publicUrl: "https://cdn.example.test/q3.pdf" },
    stored: { ...START, publicUrl: "https://cdn.example.test/q3.pdf" },
  },
  {
    form: "both",
    params: { labels: ["x"], publicUrl: "https://cdn.example.test/x.pdf" },
    stored: { labels: ["x"], publicUrl: "https://cdn.example.test/x.pdf" },
  },
  {
    form: "labels null, publicUrl given",
    params: { labels: null, publicUrl: "https://cdn.example.test/y.pdf" },
    stored: { ...START, publicUrl: "https://cdn.example.test/y.pdf" },
  },
  {
    form: "publicUrl null, labels given",
    params: { labels: ["z"], publicUrl: null },
    stored: { ...START, labels: ["z"] },
  },
  { form: "both null", params: { labels: null, publicUrl: null }, stored: START },
  {
    form: "publicUrl www.example.com (the docs' example, no scheme)",
    params: { publicUrl: "www.example.com" },
    stored: { ...START, publicUrl: "www.example.com" },
  },
  { form: "labels [] (clears them)", params: { labels: [] }, stored: { ...START, labels: [] } },
];
/** One file per update, all alike before it, so that each case stands alone; and one only read. */
const idOf = (index: number) => `sdk-${index}`;
const READ_ID = "sdk-read";
const FILES = [READ_ID, ...UPDATES.map((_, index) => idOf(index))].map((id) => ({ id, ...FILE, ...START }));

/** The SDK as an app makes it, pointed at a target (its base URL ends in /studio/v1). */
const sdkFor = (baseUrl: string) =>
  new AI21({ apiKey: SANDBOX_KEY, baseURL: `${baseUrl}/studio/v1`, maxRetries: 0, timeout: 10 });

const KINDS: TargetKind[] = ["sandbox (memory)", "sandbox (SQLite)", "fake (node:http)"];

describe.each(KINDS)("the official TypeScript SDK against the %s", { timeout: 30_000 }, (kind) => {
  let target: LibraryTarget;
  let sdk: AI21;
  beforeAll(async () => {
    target = await startTarget(kind, FILES);
    sdk = sdkFor(target.baseUrl);
  });
  afterAll(() => target?.close());

  it("files.get reads a file's metadata", async () => {
    expect(await sdk.files.get(READ_ID)).toEqual(metadata(READ_ID, START));
  });

  UPDATES.forEach(({ form, params, stored }, index) => {
    it(`files.update, ${form}: 200, and a get shows the stored values (null keeps the old one, fileId is ignored)`, async () => {
      const id = idOf(index);
      // The SDK throws "Request failed with status N. <body>" on any answer but 2xx; a 200 with no JSON body is null.
      const answer = await sdk.files.update({ fileId: id, ...params }).catch((error: Error) => error.message);
      expect(answer, String(answer)).toBeNull();
      expect(await sdk.files.get(id)).toEqual(metadata(id, stored));
      expect(await target.stored(id)).toEqual(metadata(id, stored));
    });
  });
});

describe("the official TypeScript SDK against the Prism mock", { timeout: 60_000 }, () => {
  let mock: ServerProcess;
  let sdk: AI21;
  beforeAll(async () => {
    ensureBundle();
    mock = await startPrism(bundledSpec.yaml);
    sdk = sdkFor(mock.url);
  });
  afterAll(() => mock?.stop());

  it("files.get gets the spec's example metadata", async () => {
    expect(await sdk.files.get("doc-1")).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        name: expect.any(String),
        size: expect.any(Number),
        labels: expect.any(Array),
      }),
    );
  });

  // The mock keeps nothing: what it can show is that it takes every body the SDK sends (no 422 from its validation).
  it.each(UPDATES.map(({ form, params }) => [form, params] as const))(
    "files.update, %s: 200 with no body",
    async (_form, params) => {
      const answer = await sdk.files.update({ fileId: "doc-1", ...params }).catch((error: Error) => error.message);
      expect(answer, String(answer)).toBeNull();
    },
  );
});

describe("an app using the official TypeScript SDK, through the contract proxy in front of the sandbox", {
  timeout: 60_000,
}, () => {
  it("gets 200 for every call, the sandbox stores what the design says, and the proxy has 0 findings", async () => {
    const target = await startTarget("sandbox (memory)", FILES);
    const lines: string[] = [];
    const proxy = await startProxy({
      upstream: target.baseUrl,
      reportDir: await mkdtemp(path.join(os.tmpdir(), "file-library-official-sdk-")),
      env: { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
      say: (line) => lines.push(line),
    });
    // What the app does: reads, then each form of update, each read back; every call is made, whatever the one before got.
    const sdk = sdkFor(proxy.url);
    const failures: string[] = [];
    const attempt = (what: string, call: () => Promise<unknown>) =>
      call().catch((error: unknown) => void failures.push(`${what}: ${(error as Error).message}`));
    await attempt("get", () => sdk.files.get(READ_ID));
    for (const [index, { form, params, stored }] of UPDATES.entries()) {
      await attempt(`update, ${form}`, () => sdk.files.update({ fileId: idOf(index), ...params }));
      await attempt(`get after the update, ${form}`, async () =>
        expect(await sdk.files.get(idOf(index))).toEqual(metadata(idOf(index), stored)),
      );
    }
    const run = await proxy.stop();
    await target.close();
    expect(run.summary.findings, lines.join("\n")).toEqual([]);
    expect(failures).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.summary.statuses).toEqual(
      expect.arrayContaining([
        { operation: "getFile", requests: UPDATES.length + 1, byStatus: { 200: UPDATES.length + 1 } },
        { operation: "updateFile", requests: UPDATES.length, byStatus: { 200: UPDATES.length } },
      ]),
    );
  });
});
