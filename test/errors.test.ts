import { describe, expect, it, vi } from "vitest";
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  createFileLibraryClient,
  FileLibraryError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  AbortError,
} from "../src/index.ts";
import { closedPort } from "./support/closed-port.ts";
import { API_KEY, BASE_URL, fakeFetch, json, text } from "./support/fake-fetch.ts";

const failWith = async (response: Response) => {
  const { fetch } = fakeFetch(response);
  const client = createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, maxRetries: 0 });
  return client.files.get("file_1").catch((e: unknown) => e);
};

describe("the status factory", () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
  ] as const)("maps %i to %s", async (status, errorClass) => {
    const error = await failWith(json({ message: "server says no" }, status));
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(FileLibraryError);
    const apiError = error as ApiError;
    expect(apiError.name).toBe(errorClass.name);
    expect(apiError.status).toBe(status);
    expect(apiError.operation).toBe("getFile");
    expect(apiError.body).toEqual({ message: "server says no" });
    expect(apiError.message).toContain(`HTTP ${status}`);
    expect(apiError.message).toContain("server says no");
    expect(apiError.message).toContain("GET /studio/v1/library/files/file_1");
  });

  it("uses the base ApiError for a status with no subclass", async () => {
    const error = await failWith(json({}, 418));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).constructor).toBe(ApiError);
  });

  it("keeps the response headers", async () => {
    const error = (await failWith(json({}, 429, { "retry-after": "3" }))) as RateLimitError;
    expect(error.headers.get("retry-after")).toBe("3");
  });

  it("says what to do for an auth failure", async () => {
    const error = await failWith(json({ code: "unauthorized" }, 401));
    expect((error as Error).message).toMatch(/FILE_LIBRARY_API_KEY/);
  });
});

describe("the readable message", () => {
  it.each([
    ["message", { code: "file_not_found", message: "No such file" }, "No such file"],
    ["detail text", { detail: "File not found" }, "File not found"],
    ["detail list", { detail: [{ loc: ["body", "labels", 0], msg: "must be a string", type: "string_type" }] }, "body.labels.0: must be a string"],
    ["nested error", { error: { code: "invalid_json", message: "Invalid JSON" } }, "Invalid JSON"],
    ["code only", { code: "file_not_found" }, "file_not_found"],
  ])("is built from %s", async (_, body, expected) => {
    const error = await failWith(json(body, 422));
    expect((error as Error).message).toContain(expected);
  });

  it("tolerates a body that is not JSON", async () => {
    const error = (await failWith(text("Bad Gateway from proxy", 502, "text/html"))) as ApiError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.body).toBe("Bad Gateway from proxy");
    expect(error.message).toContain("Bad Gateway from proxy");
  });

  it("joins the server's own sentence without doubling its full stop", async () => {
    const body = { code: "file_not_found", message: "No file with id x exists in this workspace." };
    const error = (await failWith(json(body, 422, { "x-request-id": "req-1" }))) as ApiError;
    expect(error.message).toBe(
      "getFile failed with HTTP 422 (GET /studio/v1/library/files/file_1): No file with id x exists in this workspace. " +
        "The file id may not exist, or the request body may be invalid. Request id: req-1",
    );
  });

  it("tolerates an empty error body", async () => {
    const error = (await failWith(new Response(null, { status: 422 }))) as ApiError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.message).toMatch(/HTTP 422/);
  });
});

describe("failures without an HTTP answer", () => {
  it("an unreachable base URL is a ConnectionError that names the URL and what to check", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const client = createFileLibraryClient({ baseUrl, apiKey: API_KEY, maxRetries: 0 });
    const error = await client.files.get("file_1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toBeInstanceOf(FileLibraryError);
    expect((error as Error).message).toContain(baseUrl);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect((error as Error).message).toMatch(/FILE_LIBRARY_BASE_URL/);
    expect((error as ConnectionError).cause).toBeInstanceOf(Error);
    // Outside a browser there is no CORS to suspect.
    expect((error as Error).message).not.toMatch(/CORS/);
  });

  it("in a browser, says that a CORS refusal fails exactly like an unreachable server", async () => {
    vi.stubGlobal("document", {});
    try {
      const client = createFileLibraryClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: API_KEY, maxRetries: 0 });
      const error = await client.files.get("file_1").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toMatch(/CORS policy refuses fails exactly like this.*Access-Control-Allow-Origin/);
      expect((error as Error).message).not.toContain("..");
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("an aborted call is an AbortError and sends nothing when aborted before", async () => {
    const { fetch, seen } = fakeFetch(json({}));
    const client = createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, maxRetries: 0 });
    const controller = new AbortController();
    controller.abort();
    await expect(client.files.get("file_1", { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
    expect(seen).toHaveLength(0);
  });

  it("an abort during the request is an AbortError, not a ConnectionError", async () => {
    const controller = new AbortController();
    const client = createFileLibraryClient({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      fetch: (request) =>
        new Promise((_, reject) => {
          request.signal.addEventListener("abort", () => reject(request.signal.reason));
          controller.abort();
        }),
    });
    await expect(client.files.get("file_1", { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
  });
});
