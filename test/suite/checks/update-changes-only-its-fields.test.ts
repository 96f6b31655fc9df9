import { describe, expect, it } from "vitest";
import {
  changedFields,
  driftAfter,
  takeBaseline,
  updateChangesOnlyItsFields,
} from "../../../contract-tests/checks/update-changes-only-its-fields.ts";
import { answer, metadataOf } from "../../support/exchange-builder.ts";
import { fakeScenario, fileServer, runCheck, type Script } from "../../support/fake-scenario.ts";

const scenario = (script: Script) => fakeScenario({ operationId: "updateFile", answer: script });
const write = (status = 200, body = '{"labels":["a"]}') =>
  answer({ operationId: "updateFile", status, request: { body } });

describe("update_changes_only_its_fields", () => {
  it("makes one update of labels (and publicUrl, when the file has one) and puts the file back, with no warning", async () => {
    const plain = await runCheck(updateChangesOnlyItsFields, { operationId: "updateFile", answer: fileServer() });
    expect(plain).toMatchObject({ state: "passed", warnings: [] });
    expect(plain.sent.map((r) => r.json)).toEqual([
      undefined,
      { labels: ["q3", "contract-check-only-labels"] },
      { labels: ["q3"] },
    ]);
    const withUrl = await runCheck(updateChangesOnlyItsFields, {
      operationId: "updateFile",
      answer: fileServer({ metadata: metadataOf({ publicUrl: "https://cdn.test/a" }) }),
    });
    expect(withUrl.sent[1]!.json).toEqual({
      labels: ["q3", "contract-check-only-labels"],
      publicUrl: "https://cdn.test/a#contract-check",
    });
  });

  it("fails an update that is refused", async () => {
    const outcome = await runCheck(updateChangesOnlyItsFields, {
      operationId: "updateFile",
      answer: fileServer({
        before: (r) => (r.operationId === "updateFile" && !r.essential ? { status: 500, json: {} } : undefined),
      }),
    });
    expect(outcome).toMatchObject({ state: "failed", problem: "the update got HTTP 500, expected 200" });
  });
});

describe("changedFields", () => {
  it("names every field but labels and publicUrl that differs, added or removed, with both values", () => {
    expect(changedFields(metadataOf(), metadataOf({ labels: [], publicUrl: "u" }))).toEqual([]);
    expect(
      changedFields(metadataOf({ etag: "e1" }), { ...metadataOf({ size: 0, owner: { id: 1 } }), etag: undefined }),
    ).toEqual(["size from 1234 to 0", 'etag from "e1" to undefined', 'owner from undefined to {"id":1}']);
  });

  it("lets a date of the last change move (the service's lastUpdated and the usual names), and no other date", () => {
    const before = {
      ...metadataOf(),
      lastUpdated: "2026-03-04",
      updatedAt: "2026-03-04T00:00:00Z",
      updated_at: "a",
      lastModified: "a",
      modified_at: "a",
      creationDate: "2026-03-04",
    };
    const after = {
      ...before,
      lastUpdated: "2026-03-05",
      updatedAt: "2026-03-05T00:00:00Z",
      updated_at: "b",
      lastModified: "b",
      modified_at: "b",
    };
    expect(changedFields(before, after)).toEqual([]);
    expect(changedFields(before, { ...after, created_at: "2026-03-05T00:00:00Z", creationDate: "2026-03-05" })).toEqual(
      [
        'created_at from "2026-01-02T03:04:05Z" to "2026-03-05T00:00:00Z"',
        'creationDate from "2026-03-04" to "2026-03-05"',
      ],
    );
  });
});

describe("takeBaseline", () => {
  it("keeps the metadata of a 200 read", async () => {
    const { scenario: s, outcome } = scenario(() => ({ json: metadataOf() }));
    expect(await takeBaseline(s)).toEqual({ metadata: metadataOf() });
    expect(outcome.sent).toEqual([{ operationId: "getFile", fileId: "doc-1", auth: "valid" }]);
  });

  it.each([
    ["a read that is not 200", { status: 422, json: metadataOf() }],
    ["an empty body", { text: "" }],
    ["an array", { json: [metadataOf()] }],
    ["a string", { json: "doc-1" }],
    ["a body that is not UTF-8", { bytes: Buffer.from([0x7b, 0x7d, 0xff]), contentType: "application/json" }],
    // Read with U+FFFD for the byte, it would parse: an object the suite guessed.
    [
      "an object that is not UTF-8",
      { bytes: Buffer.from('{"name":"\xff"}', "latin1"), contentType: "application/json" },
    ],
    ["null", { json: null }],
  ] as const)("has none after %s", async (_, parts) => {
    expect(await takeBaseline(scenario(() => parts).scenario)).toStrictEqual({ metadata: undefined });
  });
});

describe("driftAfter", () => {
  const baseline = { metadata: metadataOf() };

  it("reads the file after an accepted write and names each field that left the baseline, with the write and the read", async () => {
    const { scenario: s, outcome } = scenario(() => ({ json: metadataOf({ size: 0, labels: ["a"] }) }));
    const drift = await driftAfter(s, baseline, write());
    expect(drift?.problem).toBe(
      'an update of {"labels":["a"]} (HTTP 200) left size from 1234 to 0, against the file as the run found it before its first write',
    );
    expect(drift?.exchange.operationId).toBe("getFile");
    const two = scenario(() => ({ json: metadataOf({ name: "b.pdf", size: 0 }) })).scenario;
    expect((await driftAfter(two, baseline, write()))?.problem).toBe(
      'an update of {"labels":["a"]} (HTTP 200) left name from "report.pdf" to "b.pdf", size from 1234 to 0, against the file as the run found it before its first write',
    );
    expect(outcome.sent).toEqual([{ operationId: "getFile", fileId: "doc-1", auth: "valid" }]);
  });

  it("shows at most 120 characters of the write's body, and none when it had none", async () => {
    const { scenario: s } = scenario(() => ({ json: metadataOf({ name: "other.pdf" }) }));
    const long = JSON.stringify({ labels: ["x".repeat(200)] });
    expect((await driftAfter(s, baseline, write(204, long)))?.problem).toBe(
      `an update of ${long.slice(0, 120)}… (HTTP 204) left name from "report.pdf" to "other.pdf", against the file as the run found it before its first write`,
    );
    const exact = JSON.stringify({ labels: ["x".repeat(120 - 15)] });
    expect(exact).toHaveLength(120);
    expect((await driftAfter(s, baseline, write(200, exact)))?.problem).toContain(`an update of ${exact} (HTTP 200)`);
    const bodiless = answer({ operationId: "updateFile" });
    expect((await driftAfter(s, baseline, bodiless))?.problem).toMatch(/^an update \(HTTP 200\) left name/);
  });

  it("reads nothing without a baseline, or after a write that was not accepted", async () => {
    const { scenario: s, outcome } = scenario(() => ({ json: metadataOf({ size: 0 }) }));
    expect(await driftAfter(s, { metadata: undefined }, write())).toBeUndefined();
    for (const status of [199, 300, 422]) expect(await driftAfter(s, baseline, write(status))).toBeUndefined();
    expect(outcome.sent).toEqual([]);
  });

  it.each([
    ["the same fields", { json: metadataOf({ labels: ["a"], publicUrl: "u" }) }],
    ["a read that is not 200", { status: 422, json: metadataOf({ size: 0 }) }],
    ["a body that is not JSON", { text: "{", contentType: "application/json" }],
    [
      "a body that is not UTF-8",
      { bytes: Buffer.from('{"size":0,"x":"\xff"}', "latin1"), contentType: "application/json" },
    ],
    ["null", { json: null }],
    ["an array", { json: [metadataOf({ size: 0 })] }],
    ["a number", { json: 3 }],
  ] as const)("finds no drift in %s", async (_, parts) => {
    expect(await driftAfter(scenario(() => parts).scenario, baseline, write())).toBeUndefined();
  });
});
