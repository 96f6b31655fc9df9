import { describe, expect, it } from "vitest";
import { metadataIdProblem, metadataOfRequestedFile } from "../../../contract-tests/checks/metadata-of-requested-file.ts";
import { answer, metadataOf } from "../../support/exchange-builder.ts";
import { fileServer, runCheck } from "../../support/fake-scenario.ts";

describe("metadata_of_requested_file", () => {
  it("passes metadata of the file asked for, with no warning", async () => {
    const outcome = await runCheck(metadataOfRequestedFile, { operationId: "getFile", answer: fileServer() });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    expect(outcome.sent).toEqual([{ operationId: "getFile", fileId: "doc-1", auth: "valid" }]);
  });

  it("fails metadata of another file, quoting both ids", async () => {
    const outcome = await runCheck(metadataOfRequestedFile, { operationId: "getFile", answer: () => ({ json: metadataOf({ id: "doc-2" }) }) });
    expect(outcome).toMatchObject({ state: "failed", problem: 'the metadata\'s id is "doc-2", not the requested "doc-1"' });
    expect(outcome.exchange?.status).toBe(200);
  });

  it("fails a read that is not 200", async () => {
    const outcome = await runCheck(metadataOfRequestedFile, { operationId: "getFile", answer: () => ({ status: 422, json: { message: "no" } }) });
    expect(outcome).toMatchObject({ state: "failed", problem: "getFile got HTTP 422, expected 200" });
  });

  it("metadataIdProblem: a body that is not JSON has no id", () => {
    expect(metadataIdProblem(answer({ text: "oops", contentType: "application/json" }), "doc-1")).toBe('the metadata\'s id is undefined, not the requested "doc-1"');
    expect(metadataIdProblem(answer({ json: metadataOf() }), "doc-1")).toBeUndefined();
  });
});
