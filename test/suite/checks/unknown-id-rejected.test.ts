import { describe, expect, it } from "vitest";
import { unknownIdRejected } from "../../../contract-tests/checks/unknown-id-rejected.ts";
import { LONG_UNKNOWN_ID } from "../../../contract-tests/inputs/generators.ts";
import { fileServer, runCheck, type Script } from "../../support/fake-scenario.ts";

const run = (answer: Script, operationId: "getFile" | "updateFile" = "getFile") => runCheck(unknownIdRejected, { operationId, answer });

describe("unknown_id_rejected", () => {
  it("sends a new unknown id, then a 1000-character one, then awkward ones, and passes when each gets its 4xx, with no warning", async () => {
    const outcome = await run(fileServer());
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    const ids = outcome.sent.map((r) => r.fileId);
    expect(ids[0]).toMatch(/^contract-unknown-[0-9a-f-]{36}$/);
    expect(ids[1]).toBe(LONG_UNKNOWN_ID);
    expect(ids.length).toBeGreaterThan(3);
    expect(ids.slice(2).every((id) => id.startsWith("contract-unknown-"))).toBe(true);
    expect(outcome.sent.every((r) => r.json === undefined)).toBe(true);
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
    const after = (status: number): Script => (_, index) => (index === 0 ? { status: 422, json: {} } : { status, json: {} });
    for (const status of [400, 404, 499]) expect((await run(after(status))).state).toBe("passed");
    for (const status of [200, 399, 500]) {
      const outcome = await run(after(status));
      expect(outcome.state).toBe("failed");
      expect(outcome.problem).toBe(`the unknown id "${LONG_UNKNOWN_ID.slice(0, 60)}…" got HTTP ${status}, expected a 4xx`);
    }
  });

  it("fails a generated awkward id that gets a 2xx, naming it", async () => {
    const outcome = await run((request, index) => (index < 2 ? { status: 422, json: {} } : { status: 200, json: {} }));
    expect(outcome.state).toBe("failed");
    expect(outcome.problem).toMatch(/^the unknown id "contract-unknown-[^"]+" got HTTP 200, expected a 4xx$/);
    expect(outcome.sent.length).toBeGreaterThan(2);
  });
});
