import { describe, expect, it } from "vitest";
import { judgeAnswer, unexpected } from "../../../contract-tests/checks/judge-answer.ts";
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
      { check: "content_type_conformance", failures: [], warnings: ["503 answered with text/html, documented: application/json"] },
      { check: "max_response_time", failures: [], warnings: ["answered in 150 ms, over the limit of 100 ms"] },
    ]);
  });

  it("judges only the checks selected", () => {
    const ex = answer({ status: 503, json: {}, durationMs: 150 });
    expect(judgeAnswer(ex, spec, LIMITS, (check) => check === "max_response_time").map((v) => v.check)).toEqual(["max_response_time"]);
  });

  it("reports a check that throws as its own failure, in one line, and goes on with the others", () => {
    const broken = Object.create(spec, { documentedStatus: { value: () => { throw new TypeError("no such status\n    at somewhere"); } } }) as OpenApiValidator;
    const verdicts = judgeAnswer(answer({ status: 500, json: {} }), broken, LIMITS);
    expect(verdicts[0]).toEqual({ check: "not_a_server_error", failures: ["the server failed with HTTP 500"], warnings: [] });
    expect(verdicts[1]).toEqual({
      check: "status_code_conformance",
      failures: ["the check stopped on an unexpected error while inspecting the answer HTTP 500 to GET /studio/v1/library/files/doc-1: TypeError: no such status at somewhere"],
      warnings: [],
    });
    expect(verdicts.map((v) => v.check)).toEqual(["not_a_server_error", "status_code_conformance", "content_type_conformance", "response_schema_conformance", "response_headers_conformance"]);
  });
});

describe("unexpected", () => {
  it("says what the check was doing and the error, in one line of at most 300 characters of it", () => {
    expect(unexpected("a string thrown", "reading")).toBe("the check stopped on an unexpected error while reading: a string thrown");
    const long = unexpected(new RangeError("x".repeat(400)), "reading");
    expect(long.startsWith("the check stopped on an unexpected error while reading: RangeError: xxx")).toBe(true);
    expect(long.length).toBeLessThan(60 + 300);
  });
});
