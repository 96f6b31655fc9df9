import { describe, expect, it } from "vitest";
import {
  metadataIdProblem,
  metadataOfRequestedFile,
} from "../../../contract-tests/checks/metadata-of-requested-file.ts";
import { answer, metadataOf } from "../../support/exchange-builder.ts";
import { fileServer, runCheck } from "../../support/fake-scenario.ts";

describe("metadata_of_requested_file", () => {
  it("passes metadata of the file asked for, with no warning", async () => {
    const outcome = await runCheck(metadataOfRequestedFile, { operationId: "getFile", answer: fileServer() });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    expect(outcome.sent).toEqual([{ operationId: "getFile", fileId: "doc-1", auth: "valid" }]);
  });

  it("fails metadata of another file, quoting both ids", async () => {
    const outcome = await runCheck(metadataOfRequestedFile, {
      operationId: "getFile",
      answer: () => ({ json: metadataOf({ id: "doc-2" }) }),
    });
    expect(outcome).toMatchObject({
      state: "failed",
      problem: 'the metadata\'s id is "doc-2", not the requested "doc-1"',
    });
    expect(outcome.exchange?.status).toBe(200);
  });

  it("fails a read that is not 200", async () => {
    const outcome = await runCheck(metadataOfRequestedFile, {
      operationId: "getFile",
      answer: () => ({ status: 422, json: { message: "no" } }),
    });
    expect(outcome).toMatchObject({ state: "failed", problem: "getFile got HTTP 422, expected 200" });
  });

  it("metadataIdProblem: a body that is not JSON has no id", () => {
    expect(metadataIdProblem(answer({ text: "oops", contentType: "application/json" }), "doc-1")).toBe(
      'the metadata\'s id is undefined, not the requested "doc-1"',
    );
    expect(metadataIdProblem(answer({ json: metadataOf() }), "doc-1")).toBeUndefined();
  });

  it("metadataIdProblem: the same UUID in another letter case is the file asked for (RFC 9562); another id's case is not", () => {
    const uuid = "3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2d";
    expect(metadataIdProblem(answer({ json: metadataOf({ id: uuid }) }), uuid.toUpperCase())).toBeUndefined();
    expect(metadataIdProblem(answer({ json: metadataOf({ id: uuid.toUpperCase() }) }), uuid)).toBeUndefined();
    expect(metadataIdProblem(answer({ json: metadataOf({ id: [uuid] }) }), uuid)).toBe(
      `the metadata's id is ["${uuid}"], not the requested "${uuid}"`,
    );
    expect(metadataIdProblem(answer({ json: metadataOf({ id: "Doc-1" }) }), "doc-1")).toBe(
      'the metadata\'s id is "Doc-1", not the requested "doc-1"',
    );
  });
});
