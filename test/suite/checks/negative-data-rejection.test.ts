import { describe, expect, it } from "vitest";
import { negativeDataRejection } from "../../../contract-tests/checks/negative-data-rejection.ts";
import { fileServer, runCheck, type FileServerOptions } from "../../support/fake-scenario.ts";

const run = (server: FileServerOptions = {}, mode: "live" | "mock" = "live") =>
  runCheck(negativeDataRejection, { operationId: "updateFile", mode, answer: fileServer(server) });

describe("negative_data_rejection", () => {
  it("sends every wrong body derived from the schema and generated ones, and passes 400 and 422 alike, with no warning", async () => {
    const outcome = await run();
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    const updates = outcome.sent.filter((r) => r.operationId === "updateFile");
    // Whatever the seed: the whole-body cases, raw text among them, and each field and item of a wrong type.
    expect(updates.some((r) => r.rawBody === "labels=a&publicUrl=b")).toBe(true);
    expect(updates.some((r) => r.json === null)).toBe(true);
    expect(updates.some((r) => JSON.stringify(r.json) === '{"labels":[42]}')).toBe(true);
    expect(new Set(outcome.records)).toEqual(
      new Set([
        "bodies not an object",
        "bodies not JSON",
        "publicUrl of a wrong type",
        "labels of a wrong type",
        "labels items of a wrong type",
        "generated from the seed",
      ]),
    );
    expect(outcome.records.filter((kind) => kind === "generated from the seed")).toHaveLength(5);
  });

  it("reads the file before and after against a live server, and not against the mock", async () => {
    const live = await run();
    expect(live.sent[0]!.operationId).toBe("getFile");
    expect(live.sent.at(-1)!.operationId).toBe("getFile");
    const mock = await run({}, "mock");
    expect(mock.sent.filter((r) => r.operationId === "getFile")).toEqual([]);
  });

  it("fails a wrong body that gets anything but 400 or 422, saying what it breaks", async () => {
    const accepting = await run({
      before: (r) => (r.operationId === "updateFile" && r.rawBody !== undefined ? { status: 200 } : undefined),
    });
    expect(accepting).toMatchObject({
      state: "failed",
      problem: "a body with text that is not JSON got HTTP 200, expected 400 or 422",
    });
    expect(accepting.exchange?.status).toBe(200);
    const unauthorised = await run({
      before: (r) => (r.operationId === "updateFile" ? { status: 401, json: { message: "no" } } : undefined),
    });
    expect(unauthorised.problem).toBe("a body with a JSON null instead of an object got HTTP 401, expected 400 or 422");
  });

  it("fails rejected updates that changed the file anyway, showing the file before and after", async () => {
    const outcome = await run({
      before: (r, _, stored) => {
        if (r.operationId !== "updateFile") return undefined;
        stored.file = { ...stored.file, labels: [] };
        return { status: 422, json: { message: "rejected" } };
      },
    });
    expect(outcome).toMatchObject({
      state: "failed",
      problem: 'rejected updates changed the file: {"labels":["q3"]} became {"labels":[]}',
    });
  });
});
