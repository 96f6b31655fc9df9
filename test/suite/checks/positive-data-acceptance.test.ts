import { describe, expect, it } from "vitest";
import { positiveDataAcceptance } from "../../../contract-tests/checks/positive-data-acceptance.ts";
import { metadataOf } from "../../support/exchange-builder.ts";
import { fileServer, runCheck, type FileServerOptions } from "../../support/fake-scenario.ts";

const refusing = (operationId: string, accept?: string): FileServerOptions => ({
  before: (r) => (r.operationId === operationId && (accept === undefined || r.accept === accept) ? { status: 422, json: { message: "no" } } : undefined),
});

describe("positive_data_acceptance", () => {
  it("reads the file once, and passes a 200, with no warning", async () => {
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "getFile", answer: fileServer() });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    expect(outcome.sent).toEqual([{ operationId: "getFile", fileId: "doc-1", auth: "valid" }]);
  });

  it("fails a valid read that does not get 200", async () => {
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "getFile", answer: fileServer(refusing("getFile")) });
    expect(outcome).toMatchObject({ state: "failed", problem: "a valid request got HTTP 422, expected 200" });
    expect(outcome.exchange?.status).toBe(422);
  });

  it("asks for the download as text and as JSON, and fails the one refused, naming its Accept", async () => {
    const passed = await runCheck(positiveDataAcceptance, { operationId: "getFileDownloadUrl", answer: fileServer() });
    expect(passed.sent.map((r) => r.accept)).toEqual(["text/plain", "application/json"]);
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "getFileDownloadUrl", answer: fileServer(refusing("getFileDownloadUrl", "application/json")) });
    expect(outcome).toMatchObject({ state: "failed", problem: "a valid request (Accept: application/json) got HTTP 422, expected 200" });
  });

  // The runner skips it in a read-only run, as it says in the catalogue (the run's own tests read the skip's reason).
  it("needs writes on the update alone", () => {
    expect(positiveDataAcceptance.requiresOn).toEqual({ updateFile: ["writes"] });
    expect(positiveDataAcceptance.requires).toBeUndefined();
  });

  it("sends generated valid update bodies, labels only when the file has no publicUrl to put back, and puts the file back", async () => {
    const server = fileServer();
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "updateFile", answer: server, fuzzRuns: 20 });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    const generated = outcome.sent.slice(1, -1);
    expect(generated).toHaveLength(20);
    expect(generated.every((r) => r.operationId === "updateFile" && !("publicUrl" in (r.json as object)))).toBe(true);
    // Every field is optional: some bodies send labels, some do not.
    expect(generated.some((r) => "labels" in (r.json as object))).toBe(true);
    expect(generated.some((r) => !("labels" in (r.json as object)))).toBe(true);
    expect(outcome.sent.at(-1)).toMatchObject({ operationId: "updateFile", json: { labels: ["q3"] }, essential: true });
    expect(server.file.labels).toEqual(["q3"]);
  });

  it("generates publicUrl too when the file has one", async () => {
    const server = fileServer({ metadata: metadataOf({ publicUrl: "https://cdn.test/a" }) });
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "updateFile", answer: server, fuzzRuns: 20 });
    expect(outcome.sent.slice(1, -1).some((r) => "publicUrl" in (r.json as object))).toBe(true);
    expect(outcome.sent.at(-1)?.json).toEqual({ labels: ["q3"], publicUrl: "https://cdn.test/a" });
  });

  it("fails a valid update body that is refused", async () => {
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "updateFile", answer: fileServer({ before: (r) => (r.operationId === "updateFile" && !r.essential ? { status: 400, json: {} } : undefined) }) });
    expect(outcome).toMatchObject({ state: "failed", problem: "a valid update body got HTTP 400, expected 200" });
    expect(outcome.sent.at(-1)?.essential).toBe(true);
  });
});
