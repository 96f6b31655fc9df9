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
  InvalidArgumentError,
  MalformedResponseError,
  TimeoutError,
} from "../../src/index.ts";
import { createFakeFileLibrary } from "../../sandbox/fake.ts";
import { describeErrorBody, joinSentences, type ApiErrorDetails } from "../../src/errors.ts";
import { closedPort } from "../support/closed-port.ts";
import { API_KEY, BASE_URL, fakeFetch, json, text } from "../support/fake-fetch.ts";

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
  ] as const)("maps %i to its class", async (status, errorClass) => {
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
    [
      "detail list",
      { detail: [{ loc: ["body", "labels", 0], msg: "must be a string", type: "string_type" }] },
      "body.labels.0: must be a string",
    ],
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

  it("in a browser, also asks to check that the service allows this origin (CORS): a refusal looks like no answer", async () => {
    vi.stubGlobal("document", {});
    try {
      const client = createFileLibraryClient({
        baseUrl: `http://127.0.0.1:${await closedPort()}`,
        apiKey: API_KEY,
        maxRetries: 0,
      });
      const error = await client.files.get("file_1").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as Error).message).toMatch(
        /Check the base URL \(the baseUrl option or FILE_LIBRARY_BASE_URL\) and that the service is running and allows this origin \(CORS\)\.$/,
      );
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

// Every property docs/client.md and the JSDoc promise, read from the fake's real answers (the service's own core), and
// compared with what each answer implies: a class that builds the wrong object, or a getter that never runs, fails.
describe("every documented property, from real answers of the fake", () => {
  const KEY = "fake-key-0123456789";
  const ID = "file_props";
  const setUp = (options: { apiKey?: string; maxResponseBytes?: number } = {}) => {
    const fake = createFakeFileLibrary({ apiKey: KEY, files: [{ id: ID, name: "a.txt", content: "hello" }] });
    const client = createFileLibraryClient({
      baseUrl: fake.baseUrl,
      apiKey: options.apiKey ?? KEY,
      fetch: fake.fetch,
      maxRetries: 0,
      ...options,
    });
    return { fake, client };
  };
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable("the call succeeded"),
      (e: unknown) => e,
    );
  /** The properties every ApiError has, as the answer implies them. */
  const expectApiError = (
    error: unknown,
    Class: typeof ApiError,
    expected: { status: number; operation: string; body: unknown; requestId?: string },
  ) => {
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(FileLibraryError);
    const e = error as ApiError;
    expect(e.constructor).toBe(Class);
    expect(e.name).toBe(Class.name);
    expect(e.status).toBe(expected.status);
    expect(e.operation).toBe(expected.operation);
    expect(e.body).toEqual(expected.body);
    expect(e.attempts).toBe(1);
    expect(e.headers).toBeInstanceOf(Headers);
    expect(e.requestId).toBe(expected.requestId ?? e.headers.get("x-request-id") ?? undefined);
    expect(e.message).toContain(`${expected.operation} failed with HTTP ${expected.status}`);
    // The own fields are what toJSON shows, and what a logger prints.
    expect(e.toJSON()).toMatchObject({ name: Class.name, status: expected.status, operation: expected.operation });
    // Its headers as a plain object, which JSON shows (a Headers object stringifies as {}).
    expect(JSON.parse(JSON.stringify(e)).headers).toEqual(Object.fromEntries(e.headers));
    expect(Object.keys(e.toJSON().headers as object).length).toBeGreaterThan(0);
    return e;
  };

  it.each([
    ["seconds", { "retry-after": "3" }, 3_000],
    // RFC 9110: delay-seconds are digits only; a fraction, a sign or a trailing dot is no wait (the backoff decides).
    ["fractional seconds", { "retry-after": "1.5" }, undefined],
    ["a negative number", { "retry-after": "-5" }, undefined],
    ["retry-after-ms", { "retry-after-ms": "250" }, 250],
    ["retry-after-ms before Retry-After", { "retry-after-ms": "40", "retry-after": "9" }, 40],
    ["an HTTP date 30 s ahead", () => ({ "retry-after": new Date(Date.now() + 30_000).toUTCString() }), 30_000],
    ["an HTTP date in the past", () => ({ "retry-after": new Date(Date.now() - 60_000).toUTCString() }), 0],
    ["nothing", {}, undefined],
    ["a value that is neither", { "retry-after": "soon" }, undefined],
    ["a negative retry-after-ms", { "retry-after-ms": "-5" }, undefined],
  ] as const)(
    "429 with Retry-After as %s: a RateLimitError whose retryAfterMs is the wait asked for",
    async (_, headers, wait) => {
      const { fake, client } = setUp();
      const sent = typeof headers === "function" ? headers() : headers;
      fake.failNext("getFile", {
        status: 429,
        headers: { ...sent, "x-request-id": "req_429" },
        body: { code: "rate_limited", message: "Slow down." },
      });
      const error = expectApiError(await failureOf(client.files.get(ID)), RateLimitError, {
        status: 429,
        operation: "getFile",
        body: { code: "rate_limited", message: "Slow down." },
        requestId: "req_429",
      }) as RateLimitError;
      if (wait === undefined || wait === 0) expect(error.retryAfterMs).toBe(wait);
      // An HTTP date has one-second resolution, and the clock moves between the answer and the read.
      else
        expect(error.retryAfterMs).toBeGreaterThanOrEqual(wait - 1_000),
          expect(error.retryAfterMs).toBeLessThanOrEqual(wait);
      expect(error.toJSON().retryAfterMs).toBe(error.retryAfterMs);
    },
  );

  it("422 for an invalid body: an UnprocessableEntityError whose problems are the server's detail list", async () => {
    const { client } = setUp();
    const error = await failureOf(client.files.update(ID, { labels: "not-a-list" as unknown as string[] }));
    const e = expectApiError(error, UnprocessableEntityError, {
      status: 422,
      operation: "updateFile",
      body: expect.objectContaining({ code: "invalid_body" }),
    });
    const { problems } = e as UnprocessableEntityError;
    expect(problems).toEqual((e.body as { detail: unknown }).detail);
    expect(problems).toEqual([
      expect.objectContaining({ loc: ["body", "labels"], msg: expect.any(String), type: "type" }),
    ]);
    expect((e.toJSON() as { problems: unknown }).problems).toEqual(problems);
  });

  it("422 for an unknown id: problems is empty, the body and the hint say what happened", async () => {
    const { client } = setUp();
    const e = expectApiError(await failureOf(client.files.get("nope")), UnprocessableEntityError, {
      status: 422,
      operation: "getFile",
      body: expect.objectContaining({ code: "file_not_found" }),
    }) as UnprocessableEntityError;
    expect(e.problems).toEqual([]);
    expect(e.requestId).toBeTruthy();
    // Word for word the message docs/client.md quotes (Errors): the server's sentence, its full stop not doubled.
    expect(e.message).toBe(
      'getFile failed with HTTP 422 (GET /studio/v1/library/files/nope): No file with id "nope" exists in this workspace. ' +
        `The file id may not exist, or the request body may be invalid. Request id: ${e.requestId}`,
    );
  });

  it("422 whose detail list holds things that are not problems keeps only the objects", async () => {
    const { fake, client } = setUp();
    const item = { loc: ["body"], msg: "bad", type: "value_error" };
    fake.failNext("getFileDownloadUrl", { status: 422, body: { detail: [item, 3, "text", null, [1]] } });
    const e = (await failureOf(client.files.downloadUrl(ID))) as UnprocessableEntityError;
    expect(e).toBeInstanceOf(UnprocessableEntityError);
    expect(e.problems).toEqual([item]);
  });

  it("401 for a wrong key: an AuthenticationError that says what to check, and never the key", async () => {
    const { client } = setUp({ apiKey: "not-the-key" });
    const e = expectApiError(await failureOf(client.files.downloadUrl(ID)), AuthenticationError, {
      status: 401,
      operation: "getFileDownloadUrl",
      body: expect.objectContaining({ code: "unauthorized" }),
    });
    expect(e.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(e.message).toContain("FILE_LIBRARY_API_KEY");
    expect(JSON.stringify(e.toJSON())).not.toContain("not-the-key");
  });

  it.each([
    [400, BadRequestError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [500, InternalServerError],
    [502, InternalServerError],
    [503, InternalServerError],
    [418, ApiError],
    [451, ApiError],
  ] as const)("%i: an instance of its class with the answer's status, body and request id", async (status, Class) => {
    const { fake, client } = setUp();
    fake.failNext("getFile", {
      status,
      headers: { "x-request-id": `req_${status}` },
      body: { message: `status ${status}` },
    });
    const e = expectApiError(await failureOf(client.files.get(ID)), Class, {
      status,
      operation: "getFile",
      body: { message: `status ${status}` },
      requestId: `req_${status}`,
    });
    expect(e.message).toContain(`status ${status}`);
    expect(e.message).toContain(`Request id: req_${status}`);
  });

  it("a 5xx retried until none is left: attempts counts every one", async () => {
    const { fake } = setUp();
    const client = createFileLibraryClient({ baseUrl: fake.baseUrl, apiKey: KEY, fetch: fake.fetch, maxRetries: 2 });
    fake.failNext("getFile", { status: 503, headers: { "retry-after-ms": "0" }, times: 3 });
    const e = (await failureOf(client.files.get(ID))) as InternalServerError;
    expect(e).toBeInstanceOf(InternalServerError);
    expect(e.attempts).toBe(3);
    expect(e.message).toContain("after 3 attempts");
  });

  it("an error body cut at maxResponseBytes: the status's class, the body kept as text, the cut said", async () => {
    const { fake, client } = setUp({ maxResponseBytes: 10_000 });
    fake.failNext("getFile", {
      status: 422,
      body: { detail: [{ loc: ["body"], msg: "x".repeat(50_000), type: "t" }] },
    });
    const e = (await failureOf(client.files.get(ID))) as UnprocessableEntityError;
    expect(e).toBeInstanceOf(UnprocessableEntityError);
    expect(typeof e.body).toBe("string");
    expect((e.body as string).length).toBeLessThanOrEqual(4_097);
    // What was read is not JSON, so no detail list can be read from it.
    expect(e.problems).toEqual([]);
    expect(e.message).toContain("cut at 10000 bytes (maxResponseBytes)");
  });

  it("a 2xx that breaks the contract: a MalformedResponseError with its operation, status and excerpt", async () => {
    const { fake, client } = setUp();
    fake.failNext("getFile", { status: 200, body: "not json at all" });
    const e = (await failureOf(client.files.get(ID))) as MalformedResponseError;
    expect(e).toBeInstanceOf(MalformedResponseError);
    expect(e.name).toBe("MalformedResponseError");
    expect(e.operation).toBe("getFile");
    expect(e.status).toBe(200);
    expect(e.bodyExcerpt).toBe("not json at all");
    expect(e.toJSON()).toMatchObject({ operation: "getFile", status: 200, bodyExcerpt: "not json at all" });
  });

  it("a dropped connection: a ConnectionError with its operation, attempts and cause", async () => {
    const { fake } = setUp();
    const client = createFileLibraryClient({ baseUrl: fake.baseUrl, apiKey: KEY, fetch: fake.fetch, maxRetries: 1 });
    fake.dropNext("updateFile", { times: 2 });
    const e = (await failureOf(client.files.update(ID, { labels: [] }))) as ConnectionError;
    expect(e).toBeInstanceOf(ConnectionError);
    expect(e).not.toBeInstanceOf(TimeoutError);
    expect(e.name).toBe("ConnectionError");
    expect(e.operation).toBe("updateFile");
    expect(e.attempts).toBe(2);
    expect(e.cause).toBeInstanceOf(Error);
  });

  it("no answer in time: a TimeoutError with its operation and attempts", async () => {
    const { fake } = setUp();
    const client = createFileLibraryClient({
      baseUrl: fake.baseUrl,
      apiKey: KEY,
      fetch: fake.fetch,
      maxRetries: 0,
      timeoutMs: 20,
    });
    fake.delayNext("getFile", 2_000);
    const e = (await failureOf(client.files.get(ID))) as TimeoutError;
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e).toBeInstanceOf(ConnectionError);
    expect(e.name).toBe("TimeoutError");
    expect(e.operation).toBe("getFile");
    expect(e.attempts).toBe(1);
    expect(e.message).toContain("within 20 ms");
  });
});

// The order CHANGELOG 2.0.0 promises (docs/client.md, Errors): a log line that shows the first keys shows the message.
describe("toJSON, what JSON.stringify and a logger show", () => {
  const KEY = "fake-key-0123456789";
  const ID = "file_json";
  const thrown = (make: () => unknown) => {
    try {
      make();
    } catch (error) {
      return error;
    }
    return expect.unreachable("nothing was thrown");
  };

  it("lists the message first, then the name, then the error's own fields, headers as a plain object", async () => {
    const fake = createFakeFileLibrary({ apiKey: KEY, files: [{ id: ID, name: "a.txt", content: "hello" }] });
    const client = createFileLibraryClient({ baseUrl: fake.baseUrl, apiKey: KEY, fetch: fake.fetch, maxRetries: 0 });
    const failureOf = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.unreachable("the call succeeded"),
        (e: unknown) => e,
      );
    const unknownId = await failureOf(client.files.get("no-such-file"));
    fake.failNext("getFile", { status: 200, body: "not json at all" });
    const malformed = await failureOf(client.files.get(ID));
    fake.dropNext("getFile");
    const errors = [
      unknownId,
      malformed,
      await failureOf(client.files.get(ID)),
      thrown(() => createFileLibraryClient({ baseUrl: "files.example.com", apiKey: KEY })),
    ] as FileLibraryError[];
    expect(errors.map((e) => e.name)).toEqual([
      "UnprocessableEntityError",
      "MalformedResponseError",
      "ConnectionError",
      "InvalidArgumentError",
    ]);
    for (const error of errors) {
      const json = error.toJSON();
      expect(Object.keys(json)).toEqual(["message", "name", ...Object.keys(error).filter((key) => key !== "name")]);
      expect(json.message).toBe(error.message);
      expect(json.name).toBe(error.name);
      expect(JSON.parse(JSON.stringify(error))).toEqual(JSON.parse(JSON.stringify(json)));
    }
    expect(Object.keys(errors[0]!.toJSON())).toEqual(expect.arrayContaining(["status", "headers", "requestId"]));
    expect(errors[0]!.toJSON().headers).toEqual(Object.fromEntries((errors[0] as ApiError).headers));
  });
});

describe("describeErrorBody: one sentence from whichever shape the server used", () => {
  it.each<[string, unknown, string]>([
    ["nothing", undefined, ""],
    ["null", null, ""],
    ["text", "plain words", "plain words"],
    ["text on several lines", "line one\n\n  line two", "line one line two"],
    ["a number", 42, "42"],
    ["an array", ["a", 1], '["a",1]'],
    ["message", { message: "No such file" }, "No such file"],
    [
      "message and detail text",
      { message: "Invalid", detail: "labels must be a list" },
      "Invalid - labels must be a list",
    ],
    ["error as text", { error: "invalid_request" }, "invalid_request"],
    ["message before error text", { message: "m", error: "e" }, "m"],
    ["an error that is neither text nor an object", { error: 5 }, '{"error":5}'],
    ["a nested error object", { error: { code: "x", message: "Nested" }, message: "outer" }, "Nested"],
    ["a nested error that is a list", { error: ["a"], message: "outer" }, "outer"],
    [
      "a detail list",
      { detail: [{ loc: ["body", "labels", 0], msg: "must be a string", type: "t" }, { msg: "no loc" }] },
      "body.labels.0: must be a string; no loc",
    ],
    ["a detail list of odd items", { detail: [3, { loc: ["x"] }, null] }, '3; {"loc":["x"]}; null'],
    ["a code alone, as text", { code: "file_not_found" }, "file_not_found"],
    ["a code alone, as a number", { code: 4221 }, "4221"],
    ["a code beside a message", { code: "c", message: "said" }, "said"],
    ["a code of another type", { code: true }, '{"code":true}'],
    ["an object that says nothing known", { status: "bad" }, '{"status":"bad"}'],
    ["a detail that is neither", { detail: 5, message: "m" }, "m"],
  ])("%s", (_, body, expected) => {
    expect(describeErrorBody(body)).toBe(expected);
  });

  it("cuts a long reason at 300 characters, with an ellipsis", () => {
    expect(describeErrorBody("x".repeat(301))).toBe(`${"x".repeat(300)}…`);
    expect(describeErrorBody("x".repeat(300))).toBe("x".repeat(300));
  });
});

describe("joinSentences", () => {
  it("joins with one full stop, none after punctuation, empty parts left out", () => {
    expect(joinSentences(["a", "", "b."])).toBe("a. b.");
    expect(joinSentences(["Done!", "Next?", "Then…", "last"])).toBe("Done! Next? Then… last");
    expect(joinSentences(["one"])).toBe("one");
    expect(joinSentences(["ends.", "x"])).toBe("ends. x");
  });
});

describe("every status's message, exactly", () => {
  const details = (status: number, extra: Partial<ApiErrorDetails> = {}): ApiErrorDetails => ({
    status,
    headers: new Headers(),
    body: undefined,
    operation: "getFile",
    method: "GET",
    path: "/p",
    attempts: 1,
    ...extra,
  });
  it.each<[number, string]>([
    [
      301,
      "getFile failed with HTTP 301 (GET /p). The client follows no redirect: check the base URL (the baseUrl option or FILE_LIBRARY_BASE_URL).",
    ],
    [400, "getFile failed with HTTP 400 (GET /p)"],
    [401, "getFile failed with HTTP 401 (GET /p). Check the API key (the apiKey option or FILE_LIBRARY_API_KEY)."],
    [403, "getFile failed with HTTP 403 (GET /p). The API key is not allowed to do this."],
    [
      404,
      "getFile failed with HTTP 404 (GET /p). Check the base URL (the baseUrl option or FILE_LIBRARY_BASE_URL): the server does not know this path.",
    ],
    [409, "getFile failed with HTTP 409 (GET /p)"],
    [418, "getFile failed with HTTP 418 (GET /p)"],
    [422, "getFile failed with HTTP 422 (GET /p). The file id may not exist, or the request body may be invalid."],
    [429, "getFile failed with HTTP 429 (GET /p)"],
    [500, "getFile failed with HTTP 500 (GET /p)"],
    [599, "getFile failed with HTTP 599 (GET /p)"],
  ])("%i", (status, message) => {
    expect(ApiError.generate(details(status)).message).toBe(message);
  });

  it("says the attempts, the cut, the reason and the request id, in that order", () => {
    const error = ApiError.generate(
      details(503, {
        attempts: 3,
        cut: 100,
        body: { message: "down" },
        headers: new Headers({ "x-request-id": "r-9" }),
      }),
    );
    expect(error.message).toBe(
      "getFile failed with HTTP 503 (GET /p, after 3 attempts): down. Its body was cut at 100 bytes (maxResponseBytes). Request id: r-9",
    );
    expect(error.requestId).toBe("r-9");
    expect(ApiError.generate(details(500)).requestId).toBeUndefined();
  });

  it("names the errors that are not about a status", () => {
    expect(
      [
        new FileLibraryError("m"),
        new InvalidArgumentError("m"),
        new AbortError("m"),
        new ConnectionError("m"),
        new TimeoutError("m"),
        new MalformedResponseError("m"),
      ].map((e) => e.name),
    ).toEqual([
      "FileLibraryError",
      "InvalidArgumentError",
      "AbortError",
      "ConnectionError",
      "TimeoutError",
      "MalformedResponseError",
    ]);
  });
});
