import { describe, expect, it } from "vitest";
import { contentTypeConformance } from "../../../contract-tests/checks/content-type-conformance.ts";
import { answer, metadataOf, spec, type AnswerParts } from "../../support/exchange-builder.ts";

const judge = (parts: AnswerParts) => contentTypeConformance.inspect(answer(parts), spec);
const none = { failures: [], warnings: [] };

describe("content_type_conformance", () => {
  it("fails a 2xx body of a media type the status does not document", () => {
    expect(judge({ text: "<html></html>", contentType: "text/html; charset=utf-8" })).toEqual({
      failures: ["200 answered with text/html, documented: application/json"],
      warnings: [],
    });
    expect(judge({ operationId: "getFileDownloadUrl", text: "https://x.test/a" })).toEqual({
      failures: ["200 answered with no content type, documented: text/plain, application/json"],
      warnings: [],
    });
  });

  it("only warns on an error answer of another media type, from 400 up", () => {
    expect(judge({ operationId: "updateFile", status: 400, text: "bad", contentType: "text/plain" })).toEqual({
      failures: [],
      warnings: ["400 answered with text/plain, documented: application/json"],
    });
    expect(judge({ status: 422, json: { message: "no" }, contentType: "application/problem+json" }).warnings).toEqual([
      "422 answered with application/problem+json, documented: application/json",
    ]);
  });

  it("passes a documented media type, whatever its parameters, with no warning", () => {
    expect(judge({ json: metadataOf(), contentType: "Application/JSON; charset=utf-8" })).toEqual(none);
    expect(judge({ operationId: "getFileDownloadUrl", text: "https://x.test/a", contentType: "text/plain" })).toEqual(
      none,
    );
  });

  it("says nothing of an answer documented with no body, nor of an undocumented status", () => {
    expect(judge({ operationId: "updateFile", text: "ok", contentType: "text/html" })).toEqual(none);
    expect(judge({ status: 404, text: "gone", contentType: "text/html" })).toEqual(none);
  });
});
