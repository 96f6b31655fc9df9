import { describe, expect, it } from "vitest";
import { responseSchemaConformance } from "../../../contract-tests/checks/response-schema-conformance.ts";
import { answer, metadataOf, spec, type AnswerParts } from "../../support/exchange-builder.ts";

const judge = (parts: AnswerParts) => responseSchemaConformance.inspect(answer(parts), spec);
const none = { failures: [], warnings: [] };

describe("response_schema_conformance: bodies against their documented schema", () => {
  it("passes metadata that matches FileMetadata, extra fields and all, with no warning", () => {
    expect(judge({ json: metadataOf({ etag: "e1" }) })).toEqual(none);
  });

  it("fails metadata that breaks the schema, naming the schema and at most five problems", () => {
    expect(judge({ json: metadataOf({ size: "1234" }) })).toEqual({
      failures: ["the body does not match #/components/schemas/FileMetadata: body/size must be integer"],
      warnings: [],
    });
    const many = judge({ json: { id: 1, name: 2, size: "3", created_at: 4, labels: "5", publicUrl: 6 } }).failures;
    expect(many).toHaveLength(1);
    expect(many[0]!.split("; ")).toHaveLength(5);
  });

  it("fails a JSON content type whose body is not JSON", () => {
    expect(judge({ text: "{oops", contentType: "application/json; charset=utf-8" })).toEqual({
      failures: ["the body is not valid JSON although the content type is application/json"],
      warnings: [],
    });
  });

  it("reads a text download without its trailing newline, and fails one that is no URL", () => {
    expect(
      judge({ operationId: "getFileDownloadUrl", text: "https://files.test/doc-1?sig=1\n", contentType: "text/plain" }),
    ).toEqual(none);
    expect(
      judge({ operationId: "getFileDownloadUrl", text: "/relative\n", contentType: "text/plain" }).failures,
    ).toEqual([expect.stringMatching(/^the body does not match .+: body must match pattern/)]);
    expect(judge({ operationId: "getFileDownloadUrl", json: "https://files.test/doc-1" })).toEqual(none);
  });

  it("leaves a media type the status does not document to content_type_conformance, and a cut body to body_within_limit", () => {
    expect(judge({ text: "<html>", contentType: "text/html" })).toEqual(none);
    expect(judge({ status: 422, text: "<html>", contentType: "text/html" })).toEqual(none);
    expect(judge({ text: '{"id":', contentType: "application/json", cut: 6 })).toEqual(none);
    // A +json type on a 2xx is not judged as JSON: only error bodies are (decisions.md, D13).
    expect(judge({ json: [1], contentType: "application/vnd.api+json" })).toEqual(none);
  });

  it("says nothing of an undocumented status", () => {
    expect(judge({ status: 404, json: [1, 2] })).toEqual(none);
  });
});

describe("response_schema_conformance: the update's answer, documented with no body", () => {
  it.each([
    ["no body", { text: "" }],
    ["null", { text: "null", contentType: "application/json" }],
    ["{}", { json: {} }],
    ["{} and a newline", { text: "{}\n", contentType: "application/json" }],
    ["whitespace", { text: " \n" }],
  ] as const)("passes %s, with no warning", (_, parts) => {
    expect(judge({ operationId: "updateFile", ...parts })).toEqual(none);
  });

  it("fails any other body: the metadata, say", () => {
    expect(judge({ operationId: "updateFile", json: metadataOf() })).toEqual({
      failures: ["the 200 answer is documented with no body, but it has one"],
      warnings: [],
    });
    expect(judge({ operationId: "updateFile", text: "OK", contentType: "text/plain" }).failures).toEqual([
      "the 200 answer is documented with no body, but it has one",
    ]);
  });
});

describe("response_schema_conformance: error bodies", () => {
  it("passes the error shapes of common frameworks", () => {
    expect(judge({ status: 422, json: { code: "file_not_found", message: "No file" } })).toEqual(none);
    expect(
      judge({ status: 422, json: { detail: [{ loc: ["path", "file_id"], msg: "not found", type: "missing" }] } }),
    ).toEqual(none);
  });

  it("judges an error body under another JSON media type as JSON, by ErrorBody", () => {
    expect(judge({ status: 401, json: ["not", "an", "object"], contentType: "application/vnd.error+json" })).toEqual({
      failures: ["the body does not match #/components/schemas/ErrorBody: body must be object"],
      warnings: [],
    });
    expect(judge({ status: 401, text: "{", contentType: "application/vnd.error+json" }).failures).toEqual([
      "the body is not valid JSON although the content type is application/vnd.error+json",
    ]);
  });
});

describe("response_schema_conformance: problem documents (RFC 9457; decisions.md, D14)", () => {
  const problem = (status: number, body: unknown) =>
    judge({ status, json: body, contentType: "application/problem+json" });

  it("passes a problem document whose members have the RFC's types, extensions and all, with no warning", () => {
    expect(
      problem(422, {
        type: "about:blank",
        title: "Unprocessable",
        status: 422,
        detail: "No file doc-9",
        instance: "/errors/7f3a",
        code: "file_not_found",
      }),
    ).toEqual(none);
    expect(problem(422, { type: "https://errors.example.test/not-found", title: "Not found" })).toEqual(none);
    expect(problem(401, {})).toEqual(none);
  });

  it("fails an array, by ErrorBody", () => {
    expect(problem(422, [{ status: 422 }])).toEqual({
      failures: ["the body does not match #/components/schemas/ErrorBody: body must be object"],
      warnings: [],
    });
  });

  it('fails "message": 42, by ErrorBody', () => {
    expect(problem(422, { title: "Unprocessable", message: 42 })).toEqual({
      failures: ["the body does not match #/components/schemas/ErrorBody: body/message must be string"],
      warnings: [],
    });
  });

  it('fails "status": "422" and a status other than the answer\'s', () => {
    expect(problem(422, { status: "422" })).toEqual({
      failures: [
        `the problem document breaks RFC 9457: "status" is "422", not the answer's status as a number (422) (§3.1.2)`,
      ],
      warnings: [],
    });
    expect(problem(422, { status: 400 }).failures).toEqual([
      `the problem document breaks RFC 9457: "status" is 400, not the answer's status as a number (422) (§3.1.2)`,
    ]);
  });

  it('fails "title": 1, and every other member of a wrong type, each named with its section', () => {
    expect(problem(401, { title: 1 }).failures).toEqual([
      `the problem document breaks RFC 9457: "title" is 1, not a string (§3.1.3)`,
    ]);
    // ErrorBody allows a list of validation items as detail; a problem document's detail is a string.
    const items = [{ loc: ["body"], msg: "m", type: "t" }];
    expect(problem(401, { type: "not a uri", detail: items, instance: 7 }).failures).toEqual([
      `the problem document breaks RFC 9457: "type" is "not a uri", not a URI reference (§3.1.1); "detail" is ${JSON.stringify(items)}, not a string (§3.1.4); "instance" is 7, not a URI reference (§3.1.5)`,
    ]);
    expect(problem(401, { type: 3 }).failures).toEqual([
      `the problem document breaks RFC 9457: "type" is 3, not a URI reference (§3.1.1)`,
    ]);
  });

  it("reports both when the body breaks ErrorBody and the RFC", () => {
    expect(problem(422, { message: 42, title: 1 }).failures).toEqual([
      "the body does not match #/components/schemas/ErrorBody: body/message must be string",
      `the problem document breaks RFC 9457: "title" is 1, not a string (§3.1.3)`,
    ]);
  });

  it("judges a problem document from 400 up", () => {
    expect(
      judge({ operationId: "updateFile", status: 400, json: { status: 422 }, contentType: "application/problem+json" })
        .failures,
    ).toEqual([
      `the problem document breaks RFC 9457: "status" is 422, not the answer's status as a number (400) (§3.1.2)`,
    ]);
  });

  it("holds only problem documents to the RFC: an application/json error may have a numeric title", () => {
    expect(judge({ status: 422, json: { title: 1, status: "x" } })).toEqual(none);
  });
});
