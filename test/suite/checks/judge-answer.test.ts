import { describe, expect, it } from "vitest";
import { judgeAnswer, judgeResponse, unexpected } from "../../../contract-tests/checks/judge-answer.ts";
import { serviceDocumentShape } from "../../../contract-tests/checks/service-document-shape.ts";
import type { OpenApiValidator } from "../../../lib/openapi/validator.ts";
import { answer, metadataOf, spec } from "../../support/exchange-builder.ts";

const LIMITS = { maxResponseMs: 100 };

describe("judgeAnswer", () => {
  it("returns nothing for a correct answer: no check, no warning", () => {
    expect(judgeAnswer(answer({ json: metadataOf(), headers: { "x-request-id": "r-1" } }), spec, LIMITS)).toEqual([]);
  });

  it("returns each check that found something, with its failures and warnings, in catalogue order", () => {
    const ex = answer({ status: 503, json: { message: 1 }, contentType: "text/html", durationMs: 150 });
    expect(judgeAnswer(ex, spec, LIMITS)).toEqual([
      { check: "not_a_server_error", failures: ["the server failed with HTTP 503"], warnings: [] },
      {
        check: "content_type_conformance",
        failures: [],
        warnings: ["503 answered with text/html, documented: application/json"],
      },
      { check: "max_response_time", failures: [], warnings: ["answered in 150 ms, over the limit of 100 ms"] },
    ]);
  });

  it("judges only the checks selected", () => {
    const ex = answer({ status: 503, json: {}, durationMs: 150 });
    expect(judgeAnswer(ex, spec, LIMITS, (check) => check === "max_response_time").map((v) => v.check)).toEqual([
      "max_response_time",
    ]);
  });

  it("reports a check that throws as its own failure, in one line, and goes on with the others", () => {
    const broken = Object.create(spec, {
      documentedStatus: {
        value: () => {
          throw new TypeError("no such status\n    at somewhere");
        },
      },
    }) as OpenApiValidator;
    const verdicts = judgeAnswer(answer({ status: 500, json: {} }), broken, LIMITS);
    expect(verdicts[0]).toEqual({
      check: "not_a_server_error",
      failures: ["the server failed with HTTP 500"],
      warnings: [],
    });
    expect(verdicts[1]).toEqual({
      check: "status_code_conformance",
      failures: [
        "the check stopped on an unexpected error while inspecting the answer HTTP 500 to GET /studio/v1/library/files/doc-1: TypeError: no such status at somewhere",
      ],
      warnings: [],
    });
    expect(verdicts.map((v) => v.check)).toEqual([
      "not_a_server_error",
      "status_code_conformance",
      "content_type_conformance",
      "response_schema_conformance",
      "response_headers_conformance",
    ]);
  });
});

describe("judgeResponse: the one path of the engine, the proxy and replay", () => {
  // The metadata as the service's own OpenAPI document (FileResponse) has it.
  const documentShaped = {
    fileId: "3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2d",
    name: "notes.txt",
    fileType: "txt",
    sizeBytes: 12,
    createdBy: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    creationDate: "2026-03-04",
    lastUpdated: "2026-03-05",
    status: "PROCESSED",
    labels: ["a"],
    publicUrl: null,
  };

  it("gives judgeAnswer's verdicts and, for a 200 to getFile in the service document's shape, the diagnosis that explains them", () => {
    const ex = answer({ json: documentShaped });
    const judged = judgeResponse(ex, spec, LIMITS);
    expect(judged.verdicts).toEqual(judgeAnswer(ex, spec, LIMITS));
    expect(judged.verdicts.map((v) => v.check)).toContain("response_schema_conformance");
    expect(judged.diagnosis).toBe(serviceDocumentShape(documentShaped));
    expect(judged.diagnosis).toBeDefined();
  });

  it("gives no diagnosis for other answers: the kit's own metadata, another status, another operation", () => {
    expect(judgeResponse(answer({ json: metadataOf() }), spec, LIMITS)).toEqual({ diagnosis: undefined, verdicts: [] });
    expect(judgeResponse(answer({ status: 422, json: documentShaped }), spec, LIMITS).diagnosis).toBeUndefined();
    expect(
      judgeResponse(answer({ operationId: "updateFile", json: documentShaped }), spec, LIMITS).diagnosis,
    ).toBeUndefined();
  });

  it("gives no diagnosis for a body that is not UTF-8: its text is not what the server sent", () => {
    const notUtf8 = { ...answer({ json: documentShaped }), invalidUtf8: "at byte 20: \\xE9" };
    expect(judgeResponse(notUtf8, spec, LIMITS).diagnosis).toBeUndefined();
  });
});

describe("unexpected", () => {
  it("says what the check was doing and the error, in one line of at most 300 characters of it", () => {
    expect(unexpected("a string thrown", "reading")).toBe(
      "the check stopped on an unexpected error while reading: a string thrown",
    );
    const long = unexpected(new RangeError("x".repeat(400)), "reading");
    expect(long.startsWith("the check stopped on an unexpected error while reading: RangeError: xxx")).toBe(true);
    expect(long.length).toBeLessThan(60 + 300);
  });
});
