import { describe, expect, it } from "vitest";
import { unknownIdRejected } from "../../../contract-tests/checks/unknown-id-rejected.ts";
import { LONG_UNKNOWN_ID } from "../../../contract-tests/inputs/generators.ts";
import { fileServer, runCheck, type Script } from "../../support/fake-scenario.ts";

const run = (answer: Script, operationId: "getFile" | "updateFile" = "getFile") =>
  runCheck(unknownIdRejected, { operationId, answer });

describe("unknown_id_rejected", () => {
  it("sends a new unknown id, then a 1000-character one, then awkward ones, and passes when each gets its 4xx, with no warning", async () => {
    const outcome = await run(fileServer());
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    const ids = outcome.sent.map((r) => r.fileId);
    expect(ids[0]).toMatch(/^contract-unknown-[0-9a-f-]{36}$/);
    expect(ids[1]).toBe(LONG_UNKNOWN_ID);
    // On the read, last, the ids near the real one: the real id in the other case, with spaces, an escape, an accent, full width.
    const near = ["DOC-1", " doc-1", "doc-1 ", "%64oc-1", "d\u0301oc-1", "\uff44oc-1"];
    expect(ids.slice(-near.length)).toEqual(near);
    expect(ids.length).toBeGreaterThan(3 + near.length);
    expect(ids.slice(2, -near.length).every((id) => id.startsWith("contract-unknown-"))).toBe(true);
    expect(outcome.sent.every((r) => r.json === undefined)).toBe(true);
    expect(outcome.records).toEqual([
      "ids near the real one: in the other case",
      "ids near the real one: with a space before it",
      "ids near the real one: with a space after it",
      "ids near the real one: with its first character percent-encoded in the id",
      "ids near the real one: with an accent on its first character",
      "ids near the real one: with its first character in full width",
    ]);
  });

  it("fails an id near the real one that gets a 5xx or a 3xx, calling it the real file only for a 2xx", async () => {
    const nearAnswered =
      (status: number): Script =>
      (r) =>
        r.fileId === "DOC-1" ? { status, json: {} } : { status: 422, json: {} };
    for (const [status, found] of [
      [500, ""],
      [300, ""],
      [199, ""],
      [299, " as if it were the real file"],
      [200, " as if it were the real file"],
    ] as const) {
      const outcome = await run(nearAnswered(status));
      expect(outcome).toMatchObject({
        state: "failed",
        problem: `the id "DOC-1", the real one in the other case, got HTTP ${status}${found}, expected 422 (no file has it)`,
        warnings: [],
      });
    }
  });

  it("takes a UUID file id in the other case as the same id: served or refused with 422, it passes; a 5xx fails", async () => {
    const uuid = "3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2d";
    const upper = uuid.toUpperCase();
    const answering =
      (status: number): Script =>
      (r) =>
        r.fileId === upper ? { status, json: status === 200 ? { id: uuid } : {} } : { status: 422, json: {} };
    for (const status of [200, 422]) {
      const outcome = await runCheck(unknownIdRejected, {
        operationId: "getFile",
        fileId: uuid,
        answer: answering(status),
      });
      expect(outcome, String(status)).toMatchObject({ state: "passed", warnings: [] });
      expect(outcome.sent.map((r) => r.fileId)).toContain(upper);
    }
    for (const status of [500, 300]) {
      const broken = await runCheck(unknownIdRejected, {
        operationId: "getFile",
        fileId: uuid,
        answer: answering(status),
      });
      expect(broken, String(status)).toMatchObject({
        state: "failed",
        problem: `the id "${upper}", the real one in the other case (the same UUID: RFC 9562), got HTTP ${status}, expected 200 or 422`,
      });
    }
    // The other near ids of a UUID are still different ids: served, they fail.
    const spaced = await runCheck(unknownIdRejected, {
      operationId: "getFile",
      fileId: uuid,
      answer: (r) => (r.fileId.trim() === uuid ? { json: { id: uuid } } : { status: 422, json: {} }),
    });
    expect(spaced.problem).toMatch(
      /^the id " 3b1f6c9e-.*", the real one with a space before it, got HTTP 200 as if it were the real file, expected 422 \(no file has it\)$/,
    );
  });

  it("fails an id near the real one answered as the real file, naming how it is near", async () => {
    const outcome = await run((r) =>
      r.fileId.trim().toLowerCase() === "doc-1" ? { json: { id: "doc-1" } } : { status: 422, json: {} },
    );
    expect(outcome).toMatchObject({
      state: "failed",
      problem:
        'the id "DOC-1", the real one in the other case, got HTTP 200 as if it were the real file, expected 422 (no file has it)',
    });
  });

  it("takes any 4xx for an id near the real one, as for an awkward id (a router may answer 404 first)", async () => {
    const outcome = await run((r) =>
      r.fileId.includes("oc-1") && r.fileId !== "doc-1" ? { status: 404, json: {} } : { status: 422, json: {} },
    );
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
  });

  it("sends updates a body of labels, so that an update of an unknown id is judged as one", async () => {
    const outcome = await run(fileServer(), "updateFile");
    expect(outcome.sent.every((r) => JSON.stringify(r.json) === '{"labels":["contract-check"]}')).toBe(true);
  });

  it("fails an unknown id that does not get 422 (a 404, say)", async () => {
    const outcome = await run(() => ({ status: 404, json: { message: "not found" } }));
    expect(outcome).toMatchObject({ state: "failed", problem: "an unknown id got HTTP 404, expected 422" });
    expect(outcome.sent).toHaveLength(1);
  });

  it("lets awkward ids get any 4xx, and fails a 2xx or a 5xx, naming the id", async () => {
    const after =
      (status: number): Script =>
      (_, index) =>
        index === 0 ? { status: 422, json: {} } : { status, json: {} };
    for (const status of [400, 404, 499]) expect((await run(after(status))).state).toBe("passed");
    for (const status of [200, 399, 500]) {
      const outcome = await run(after(status));
      expect(outcome.state).toBe("failed");
      expect(outcome.problem).toBe(
        `the unknown id "${LONG_UNKNOWN_ID.slice(0, 60)}…" got HTTP ${status}, expected a 4xx`,
      );
    }
  });

  it("fails a generated awkward id that gets a 2xx, naming it", async () => {
    const outcome = await run((request, index) => (index < 2 ? { status: 422, json: {} } : { status: 200, json: {} }));
    expect(outcome.state).toBe("failed");
    expect(outcome.problem).toMatch(/^the unknown id "contract-unknown-[^"]+" got HTTP 200, expected a 4xx$/);
    expect(outcome.sent.length).toBeGreaterThan(2);
  });
});
