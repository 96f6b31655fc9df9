// covers: src/send.ts, src/retry.ts, src/client.ts
import { createHook } from "node:async_hooks";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AbortError,
  ConnectionError,
  createFileLibraryClient,
  FileLibraryError,
  InternalServerError,
  MalformedResponseError,
  RateLimitError,
  TimeoutError,
  UnprocessableEntityError,
  type ClientOptions,
} from "../../src/index.ts";
import { retryDelay } from "../../src/retry.ts";
import { closedPort } from "../support/closed-port.ts";
import { API_KEY, fakeFetch, json, sampleMetadata } from "../support/fake-fetch.ts";
import { reply, scriptedServer, type ScriptedServer, type Step } from "../support/scripted-server.ts";

const OK = reply(200, sampleMetadata);

// ---- every scenario must leave no timer and no unhandled rejection behind ----
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
// Only the client's own timers are counted: undici's pooled connections and vitest keep timers of their own, which
// come and go with the machine's load (a connection the server just closed keeps its keep-alive timer a moment).
const clientSource = fileURLToPath(new URL("../../src/", import.meta.url));
const clientTimers = new Set<NodeJS.Timeout & { _destroyed?: boolean }>();
const timerHook = createHook({
  init(_id, type, _trigger, resource) {
    if (type === "Timeout" && new Error().stack?.includes(clientSource)) clientTimers.add(resource as NodeJS.Timeout);
  },
});
// A Timeout is marked destroyed at once when it fires or is cleared; the destroy hook would only run later.
const pendingClientTimers = () => [...clientTimers].filter((timer) => !timer._destroyed).length;
let server: ScriptedServer | undefined;

beforeAll(() => {
  process.on("unhandledRejection", onUnhandled);
  timerHook.enable();
});
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
  timerHook.disable();
});
beforeEach(() => {
  clientTimers.clear();
});
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
  // Let rejections that nobody handled surface before checking.
  await new Promise((resolve) => setImmediate(resolve));
  expect(unhandled, "unhandled promise rejections").toEqual([]);
  expect(pendingClientTimers(), "timers the client left behind").toBe(0);
});

async function serve(...script: Step[]) {
  server = await scriptedServer(...script);
  return server;
}
const clientFor = (s: ScriptedServer, options: ClientOptions = {}) =>
  createFileLibraryClient({ baseUrl: s.baseUrl, apiKey: API_KEY, ...options });
const fast = (ms = 1) => ({ "retry-after-ms": String(ms) });

describe("retries", () => {
  it("a server that resets the first connection and then answers 200 succeeds with default options", async () => {
    const s = await serve("reset", OK);
    expect(await clientFor(s).files.get("f")).toEqual(sampleMetadata);
    expect(s.requests).toHaveLength(2);
  });

  it("503 then 200 succeeds, and withResponse tells how many attempts it took", async () => {
    const s = await serve(reply(503, {}, fast()), OK);
    const result = await clientFor(s).withResponse.files.get("f");
    expect(result.data).toEqual(sampleMetadata);
    expect(result.attempts).toBe(2);
    expect(result.response.status).toBe(200);
  });

  it.each([408, 409, 429, 500, 502, 504])("retries %i", async (status) => {
    const s = await serve(reply(status, {}, fast()), OK);
    await clientFor(s).files.get("f");
    expect(s.requests).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 422])("never retries %i", async (status) => {
    const s = await serve(reply(status, { message: "no" }, fast()), OK);
    const error = await clientFor(s)
      .files.get("f")
      .catch((e: unknown) => e);
    expect((error as { status: number }).status).toBe(status);
    expect(s.requests).toHaveLength(1);
  });

  it("x-should-retry: false stops a retry the status would allow", async () => {
    const s = await serve(reply(503, {}, { ...fast(), "x-should-retry": "false" }), OK);
    const error = await clientFor(s)
      .files.get("f")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(s.requests).toHaveLength(1);
  });

  it("x-should-retry: true retries a status that is otherwise final", async () => {
    const s = await serve(reply(422, {}, { ...fast(), "x-should-retry": "true" }), OK);
    await clientFor(s).files.get("f");
    expect(s.requests).toHaveLength(2);
  });

  it("gives up after maxRetries, with the attempts in the error", async () => {
    const s = await serve(
      reply(503, {}, fast()),
      reply(503, {}, fast()),
      reply(503, { message: "still down" }, fast()),
      OK,
    );
    const error = (await clientFor(s)
      .files.get("f")
      .catch((e: unknown) => e)) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.attempts).toBe(3);
    expect(error.message).toContain("after 3 attempts");
    expect(error.message).toContain("still down");
    expect(s.requests).toHaveLength(3);
  });

  it("maxRetries: 0 disables retries, and a per-call value overrides the client's", async () => {
    const s = await serve(reply(503, {}, fast()), reply(503, {}, fast()), OK);
    const client = clientFor(s, { maxRetries: 0 });
    await expect(client.files.get("f")).rejects.toBeInstanceOf(InternalServerError);
    expect(s.requests).toHaveLength(1);
    await expect(client.files.get("f", { maxRetries: 1 })).resolves.toEqual(sampleMetadata);
    expect(s.requests).toHaveLength(3);
  });

  it("an unreachable base URL is a ConnectionError with the cause, after every retry", async () => {
    const client = createFileLibraryClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      apiKey: API_KEY,
      maxRetries: 1,
    });
    const error = (await client.files.get("f").catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.attempts).toBe(2);
    expect(error.message).toMatch(/, after 2 attempts\): .*ECONNREFUSED/);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("a malformed 2xx body is not retried", async () => {
    const s = await serve(reply(200, [1, 2]), OK);
    await expect(clientFor(s).files.get("f")).rejects.toBeInstanceOf(MalformedResponseError);
    expect(s.requests).toHaveLength(1);
  });
});

describe("timeouts", () => {
  it("an attempt that gets no answer within timeoutMs is a TimeoutError naming the limit and the operation", async () => {
    const s = await serve("hang");
    const error = (await clientFor(s, { timeoutMs: 50, maxRetries: 0 })
      .files.get("f")
      .catch((e: unknown) => e)) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toBeInstanceOf(FileLibraryError);
    expect(error.message).toContain("getFile could not reach the File Library");
    expect(error.message).toContain("no answer within 50 ms. Raise timeoutMs");
    // The abort reason of the client's own timer is not a cause to show (it was an unlabelled Symbol).
    expect(error.cause).toBeUndefined();
  });

  it("a timed-out attempt is retried like a connection failure", async () => {
    const s = await serve("hang", OK);
    const result = await clientFor(s, { timeoutMs: 100 }).withResponse.files.get("f");
    expect(result.attempts).toBe(2);
    expect(s.requests).toHaveLength(2);
  });

  // The body is read inside the attempt: a server that sends its head at once and then stops would otherwise hold the
  // call for ever, timeoutMs notwithstanding. Both paths, as each reads the body its own way.
  it.each([
    ["sent by the client itself", false],
    ["sent through openapi-fetch's middleware", true],
  ])("timeoutMs covers the body too: a body that stops coming is a TimeoutError (%s)", async (_, middleware) => {
    const s = await serve("stall");
    const client = clientFor(s, { timeoutMs: 100, maxRetries: 0 });
    if (middleware) client.raw.use({ onRequest: ({ request }) => request });
    const error = await client.files.get("f").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain("no answer within 100 ms");
    expect(s.requests).toHaveLength(1);
  });

  it("a per-call timeout overrides the client's", async () => {
    const s = await serve("hang");
    const error = await clientFor(s, { timeoutMs: 60_000, maxRetries: 0 })
      .files.downloadUrl("f", { timeoutMs: 30 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain("getFileDownloadUrl could not reach the File Library");
  });
});

describe("cancellation", () => {
  it("aborting during a request rejects at once with AbortError and makes no further attempt", async () => {
    const s = await serve("hang", OK);
    const controller = new AbortController();
    const client = clientFor(s);
    const call = client.files.get("f", { signal: controller.signal });
    await vi.waitFor(() => expect(s.requests).toHaveLength(1));
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(AbortError);
    expect(s.requests).toHaveLength(1);
  });

  it("aborting during the wait before a retry rejects with AbortError and makes no further attempt", async () => {
    const s = await serve(reply(503, {}, { "retry-after": "30" }), OK);
    const controller = new AbortController();
    // The retry line is logged just before the 30 s wait starts: abort once it has started.
    const logger = { debug() {}, info: () => void setImmediate(() => controller.abort()), warn() {}, error() {} };
    const call = clientFor(s, { logger, logLevel: "info" }).files.get("f", { signal: controller.signal });
    await expect(call).rejects.toBeInstanceOf(AbortError);
    expect(s.requests).toHaveLength(1);
  });

  it("an already aborted signal sends nothing", async () => {
    const s = await serve(OK);
    await expect(clientFor(s).files.get("f", { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    expect(s.requests).toHaveLength(0);
  });

  it("an injected fetch that ignores its signal still rejects at once on abort", async () => {
    const controller = new AbortController();
    const client = createFileLibraryClient({
      baseUrl: "http://files.example.test",
      apiKey: API_KEY,
      fetch: () => {
        queueMicrotask(() => controller.abort());
        return new Promise<Response>(() => {});
      },
    });
    await expect(client.files.get("f", { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
  });
});

describe("waiting between attempts (fake timers, in-memory fetch)", () => {
  const scripted = (...responses: Response[]) => {
    const fake = fakeFetch(...responses);
    return {
      ...fake,
      client: createFileLibraryClient({ baseUrl: "http://files.example.test", apiKey: API_KEY, fetch: fake.fetch }),
    };
  };

  it("honours Retry-After in seconds", async () => {
    vi.useFakeTimers();
    const { client, seen } = scripted(json({}, 429, { "retry-after": "3" }), json(sampleMetadata));
    const call = client.files.get("f");
    await vi.advanceTimersByTimeAsync(2_999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(call).resolves.toEqual(sampleMetadata);
    expect(seen).toHaveLength(2);
  });

  it("honours Retry-After as an HTTP date", async () => {
    vi.useFakeTimers({ now: Date.parse("2026-01-01T00:00:00Z") });
    const { client, seen } = scripted(
      json({}, 503, { "retry-after": "Thu, 01 Jan 2026 00:00:10 GMT" }),
      json(sampleMetadata),
    );
    const call = client.files.get("f");
    await vi.advanceTimersByTimeAsync(9_999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(seen).toHaveLength(2);
  });

  it("prefers retry-after-ms", async () => {
    vi.useFakeTimers();
    const { client, seen } = scripted(
      json({}, 429, { "retry-after-ms": "250", "retry-after": "30" }),
      json(sampleMetadata),
    );
    const call = client.files.get("f");
    await vi.advanceTimersByTimeAsync(249);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await call;
  });

  // Math.random pinned at both ends: 0 gives no jitter, just under 1 the most (25% shorter, never longer).
  it.each([
    [0, 500, 1_000],
    [0.99999, 375, 750],
  ])(
    "backs off from 0.5 s, doubling, when the server says nothing (random %d: waits %i then %i ms)",
    async (random, first, second) => {
      vi.useFakeTimers();
      const spy = vi.spyOn(Math, "random").mockReturnValue(random);
      try {
        const { client, seen } = scripted(json({}, 503), json({}, 503), json(sampleMetadata));
        const call = client.files.get("f");
        await vi.advanceTimersByTimeAsync(first - 1);
        expect(seen).toHaveLength(1);
        await vi.advanceTimersByTimeAsync(1);
        expect(seen).toHaveLength(2);
        await vi.advanceTimersByTimeAsync(second - 1);
        expect(seen).toHaveLength(2);
        await vi.advanceTimersByTimeAsync(1);
        await call;
        expect(seen).toHaveLength(3);
      } finally {
        spy.mockRestore();
      }
    },
  );

  // RFC 9110 allows digits or an HTTP-date: "-5", "+5" and "1." are neither, so the client backs off (0.5 s with jitter
  // pinned to none). Date.parse read each as a date in the past, and the retries went out at once.
  it.each(["-5", "+5", "1."])(
    "backs off 500 ms after Retry-After: %s, which says no wait at all",
    async (retryAfter) => {
      vi.useFakeTimers();
      const spy = vi.spyOn(Math, "random").mockReturnValue(0);
      try {
        const { client, seen } = scripted(json({}, 429, { "retry-after": retryAfter }), json(sampleMetadata));
        const call = client.files.get("f");
        await vi.advanceTimersByTimeAsync(499);
        expect(seen).toHaveLength(1);
        await vi.advanceTimersByTimeAsync(1);
        await expect(call).resolves.toEqual(sampleMetadata);
        expect(seen).toHaveLength(2);
      } finally {
        spy.mockRestore();
      }
    },
  );

  it("ignores a Retry-After over 60 s and backs off instead", async () => {
    vi.useFakeTimers();
    const { client, seen } = scripted(json({}, 429, { "retry-after": "3600" }), json(sampleMetadata));
    const call = client.files.get("f");
    await vi.advanceTimersByTimeAsync(500);
    await call;
    expect(seen).toHaveLength(2);
  });

  it("throws RateLimitError once the retries are spent", async () => {
    vi.useFakeTimers();
    const { client, seen } = scripted(json({ message: "slow down" }, 429, { "retry-after": "1" }));
    const call = client.files.get("f").catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await call).toBeInstanceOf(RateLimitError);
    expect(seen).toHaveLength(3);
  });
});

describe("retryDelay", () => {
  it.each([
    [0, 500],
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [4, 8_000],
    [9, 8_000],
  ])("backoff after %i retries is %i ms without jitter, and at least 75%% of it with", (retries, ms) => {
    expect(retryDelay(retries, undefined, 0, () => 0)).toEqual({ ms, source: "backoff" });
    expect(retryDelay(retries, undefined, 0, () => 0.9999).ms).toBeGreaterThanOrEqual(ms * 0.75);
  });

  it("reads retry-after-ms, then Retry-After seconds or date, and falls back to backoff for garbage", () => {
    const h = (headers: Record<string, string>) => new Headers(headers);
    expect(retryDelay(0, h({ "retry-after-ms": "1500.5" }), 0)).toEqual({ ms: 1500.5, source: "retry-after-ms" });
    expect(retryDelay(0, h({ "retry-after": "2" }), 0)).toEqual({ ms: 2000, source: "retry-after" });
    expect(retryDelay(0, h({ "retry-after": "Thu, 01 Jan 1970 00:00:05 GMT" }), 1000)).toEqual({
      ms: 4000,
      source: "retry-after",
    });
    expect(retryDelay(0, h({ "retry-after": "soon" }), 0, () => 0)).toEqual({ ms: 500, source: "backoff" });
  });
});

describe("request ids", () => {
  it("ApiError carries the server's x-request-id and shows it in the message", async () => {
    const s = await serve(reply(422, { message: "no such file" }, { "x-request-id": "req_123" }));
    const error = (await clientFor(s)
      .files.get("f")
      .catch((e: unknown) => e)) as UnprocessableEntityError;
    expect(error.requestId).toBe("req_123");
    expect(error.attempts).toBe(1);
    expect(error.message).toContain("req_123");
  });

  it("withResponse returns the request id of a success", async () => {
    const s = await serve(reply(200, sampleMetadata, { "x-request-id": "req_ok" }));
    expect((await clientFor(s).withResponse.files.get("f")).requestId).toBe("req_ok");
  });
});

describe("logging", () => {
  const capture = () => {
    const lines: Array<[string, string]> = [];
    const logger = {
      debug: (m: string) => lines.push(["debug", m]),
      info: (m: string) => lines.push(["info", m]),
      warn: (m: string) => lines.push(["warn", m]),
      error: (m: string) => lines.push(["error", m]),
    };
    return { lines, logger };
  };

  it("logs one debug line per attempt, with its outcome and time, and one info line per retry with the reason and the wait", async () => {
    const s = await serve(reply(503, { token: API_KEY }, fast(7)), OK);
    const { lines, logger } = capture();
    await clientFor(s, { logger, logLevel: "debug" }).files.get("f");
    const attempts = lines.filter(([level]) => level === "debug").map(([, m]) => m);
    expect(attempts).toEqual([
      expect.stringMatching(
        /^file-library: getFile GET \/studio\/v1\/library\/files\/f: attempt 1\/3: HTTP 503 in \d+ ms$/,
      ),
      expect.stringMatching(
        /^file-library: getFile GET \/studio\/v1\/library\/files\/f: attempt 2\/3: HTTP 200 in \d+ ms$/,
      ),
    ]);
    const retries = lines.filter(([level]) => level === "info");
    expect(retries).toEqual([
      [
        "info",
        "file-library: getFile GET /studio/v1/library/files/f: HTTP 503; retrying in 7 ms (retry-after-ms), attempt 2/3",
      ],
    ]);
    expect(JSON.stringify(lines)).not.toContain(API_KEY);
  });

  it("logs nothing for a retried call at the default level (warn)", async () => {
    const s = await serve(reply(503, {}, fast()), OK);
    const { lines, logger } = capture();
    await clientFor(s, { logger }).files.get("f");
    expect(lines).toEqual([]);
  });

  it("takes the level from FILE_LIBRARY_LOG, and rejects an unknown one", async () => {
    vi.stubEnv("FILE_LIBRARY_LOG", "info");
    try {
      const s = await serve(reply(503, {}, fast()), OK);
      const { lines, logger } = capture();
      await clientFor(s, { logger }).files.get("f");
      expect(lines.map(([level]) => level)).toEqual(["info"]);
      vi.stubEnv("FILE_LIBRARY_LOG", "verbose");
      expect(() => clientFor(s, { logger })).toThrow(/FILE_LIBRARY_LOG must be one of debug, info, warn, error, off/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("redacts secret-named headers and fields of an error answer", async () => {
    const s = await serve(
      reply(401, { message: "bad", access_token: "tok-999" }, { "set-cookie": "session=abc", "x-api-key": "k-1" }),
    );
    const error = (await clientFor(s)
      .files.get("f")
      .catch((e: unknown) => e)) as { headers: Headers; body: unknown };
    expect(error.headers.get("set-cookie")).toBe("[REDACTED]");
    expect(error.headers.get("x-api-key")).toBe("[REDACTED]");
    expect(error.body).toEqual({ message: "bad", access_token: "[REDACTED]" });
    expect(JSON.stringify(error)).not.toMatch(/tok-999|session=abc|k-1/);
  });
});

describe("escape hatches", () => {
  it("openapi-fetch middleware on raw applies to the methods", async () => {
    const s = await serve(OK);
    const client = clientFor(s);
    client.raw.use({
      onRequest({ request }) {
        request.headers.set("x-traced", "yes");
        return request;
      },
    });
    await client.files.get("f");
    expect(s.requests[0]!.headers["x-traced"]).toBe("yes");
  });
});
