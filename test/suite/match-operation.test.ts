import { beforeAll, describe, expect, it } from "vitest";
import { bundledSpec } from "../../scripts/lib/paths.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { loadBundledSpec } from "../../lib/openapi/load.ts";
import { contractProblems, toMatchOperation } from "../../contract-tests/run/match-operation.ts";
import type { Exchange } from "../../contract-tests/http/exchange.ts";
import type { OperationId } from "../../contract-tests/checks/types.ts";

let spec: OpenApiValidator;
// The global setup bundles the spec (test/support/bundled-spec.ts).
beforeAll(() => {
  spec = loadBundledSpec(bundledSpec.json, "run `npm run build:spec`.");
});

const metadata = { id: "f1", name: "a.pdf", size: 3, created_at: "2026-01-02T03:04:05Z", labels: ["x"] };

/** A synthetic exchange; a string body is sent as is unless the content type is JSON. */
function answer(
  operationId: OperationId,
  status: number,
  body: unknown,
  contentType = "application/json",
  raw?: string,
): Exchange {
  const text = raw ?? (typeof body === "string" && contentType !== "application/json" ? body : JSON.stringify(body));
  return {
    operationId,
    request: {
      auth: "valid",
      method: "GET",
      path: "/studio/v1/library/files/f1",
      url: "http://x/studio/v1/library/files/f1",
      headers: { authorization: "Bearer [REDACTED]" },
    },
    status,
    headers: new Headers(contentType ? { "content-type": contentType } : {}),
    mediaType: contentType.split(";")[0]!,
    text: body === undefined ? "" : text,
    durationMs: 1,
    secretEchoedIn: [],
    redact: (shown) => shown,
    failedAttempts: [],
  };
}

describe("the contract matcher accepts what the spec allows", () => {
  it.each([
    ["getFile 200 metadata", answer("getFile", 200, metadata), 200],
    [
      "getFile 200 with extra fields and a +00:00 offset",
      answer("getFile", 200, { ...metadata, created_at: "2026-01-02T03:04:05+00:00", etag: "e" }),
      200,
    ],
    [
      "getFile 422 with a FastAPI detail list",
      answer("getFile", 422, { detail: [{ loc: ["path", "file_id"], msg: "not found", type: "missing" }] }),
      422,
    ],
    ["getFile 503, a documented server error", answer("getFile", 503, { message: "down" }), undefined],
    ["download 200 as text", answer("getFileDownloadUrl", 200, "https://dl.example.test/f1?sig=1", "text/plain"), 200],
    [
      "download 200 as text with a trailing newline",
      answer("getFileDownloadUrl", 200, "https://dl.example.test/f1?sig=1\n", "text/plain; charset=utf-8"),
      200,
    ],
    ["download 200 as a JSON string", answer("getFileDownloadUrl", 200, "https://dl.example.test/f1?sig=1"), 200],
    ["update 200 with no body", answer("updateFile", 200, undefined, ""), 200],
    ["update 200 with {}", answer("updateFile", 200, {}), 200],
    [
      "update 400 for a body that is not JSON",
      answer("updateFile", 400, { error: { code: "invalid_json" } }),
      [400, 422],
    ],
  ] as const)("%s", (_, ex, expected) => {
    expect(contractProblems(spec, ex, ex.operationId, expected)).toEqual([]);
  });
});

describe("the contract matcher rejects what the spec does not allow", () => {
  it.each([
    ["a wrong status", answer("getFile", 200, metadata), 422, /status 200, expected 422/],
    [
      "an undocumented status (404 for an unknown id)",
      answer("getFile", 404, { message: "nope" }),
      undefined,
      /status 404 is not documented for getFile/,
    ],
    ["size as a string", answer("getFile", 200, { ...metadata, size: "3" }), 200, /body\/size must be integer/],
    [
      "a missing required field",
      answer("getFile", 200, { ...metadata, labels: undefined }),
      200,
      /must have required property 'labels'/,
    ],
    [
      "a local-time created_at",
      answer("getFile", 200, { ...metadata, created_at: "2026-01-02T03:04:05+02:00" }),
      200,
      /created_at must match pattern/,
    ],
    [
      "a created_at that is no date",
      answer("getFile", 200, { ...metadata, created_at: "yesterday" }),
      200,
      /created_at must match format "date-time"/,
    ],
    [
      "metadata as text/html",
      answer("getFile", 200, "<html></html>", "text/html"),
      200,
      /200 answered with text\/html, documented: application\/json/,
    ],
    [
      "a JSON content type with a body that is not JSON",
      answer("getFile", 200, undefined, "application/json", "{oops"),
      200,
      /not valid JSON/,
    ],
    [
      "a relative download URL",
      answer("getFileDownloadUrl", 200, "/files/f1", "text/plain"),
      200,
      /must match pattern/,
    ],
    [
      "a download URL inside a JSON object",
      answer("getFileDownloadUrl", 200, { url: "https://dl.example.test/f1" }),
      200,
      /body must be string/,
    ],
    [
      "an update answer with a body",
      answer("updateFile", 200, metadata),
      200,
      /documented with no body, but it has one/,
    ],
    ["a 2xx for a wrong body", answer("updateFile", 200, undefined, ""), [400, 422], /status 200, expected 400 or 422/],
  ] as const)("%s", (_, ex, expected, problem) => {
    const problems = contractProblems(spec, ex, ex.operationId, expected);
    expect(problems.join("\n")).toMatch(problem);
  });

  it("names the operation, status, content type, the first violations and the request in its message", () => {
    const ex = answer("getFile", 200, { ...metadata, size: "3", labels: "x" });
    const result = toMatchOperation(spec, ex, "getFile", 200);
    expect(result.pass).toBe(false);
    const message = result.message();
    expect(message).toContain("getFile → 200 application/json breaks the contract");
    expect(message).toContain("body/size must be integer");
    expect(message).toContain("body/labels must be array");
    expect(message).toContain("#/components/schemas/FileMetadata");
    expect(message).toContain("request:  GET /studio/v1/library/files/f1");
    expect(message).toContain("authorization: Bearer [REDACTED]");
  });
});
