// Retries as apps meet them are test/client/client-retries.test.ts; this is sendWithRetries' own edges, with a scripted attempt.
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AbortError, ApiError, ConnectionError, TimeoutError } from "../../src/errors.ts";
import { levelledLogger, type Logger } from "../../src/logger.ts";
import { errorBodyOf, sendWithRetries, type Call, type RawResult } from "../../src/send.ts";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const lines: string[] = [];
const logger: Logger = { debug: (m) => lines.push(m), info: (m) => lines.push(m), warn: () => {}, error: () => {} };
const call = (extra: Partial<Call> = {}): Call => ({
  operation: "getFile",
  method: "GET",
  path: "/p",
  baseUrl: "https://files.example.test",
  secrets: ["s3cret"],
  log: levelledLogger(logger, "warn"),
  maxRetries: 0,
  timeoutMs: 1_000,
  ...extra,
});
const ok = (): RawResult => ({
  response: new Response(null, { status: 200 }),
  data: { bytes: new Uint8Array([1]), cut: false },
});
const failed = (status: number, error?: unknown, cut?: number, headers: Record<string, string> = {}): RawResult => ({
  response: new Response(null, { status, headers }),
  error,
  cut,
});
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable("it succeeded"),
    (e: unknown) => e as Error,
  );

describe("errorBodyOf", () => {
  it("is JSON when it parses, else the text, and nothing when empty", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(errorBodyOf(bytes('{"a":1}'))).toEqual({ a: 1 });
    expect(errorBodyOf(bytes("not json"))).toBe("not json");
    expect(errorBodyOf(bytes(""))).toBeUndefined();
    expect(errorBodyOf(bytes("0"))).toBe(0);
  });
});

describe("the error body an ApiError keeps", () => {
  it("keeps 4,096 characters of text, and cuts a longer one with an ellipsis", async () => {
    const exactly = "x".repeat(4_096);
    expect(((await outcome(sendWithRetries(call(), async () => failed(422, exactly)))) as ApiError).body).toBe(exactly);
    expect(((await outcome(sendWithRetries(call(), async () => failed(422, `${exactly}y`)))) as ApiError).body).toBe(
      `${exactly}…`,
    );
  });

  it("keeps a body cut at the limit only as text, even when what was read parses", async () => {
    const error = (await outcome(sendWithRetries(call(), async () => failed(422, { detail: "d" }, 10)))) as ApiError;
    expect(error.body).toBe('{"detail":"d"}');
    expect(error.message).toContain("Its body was cut at 10 bytes (maxResponseBytes)");
    // A whole body stays what it parsed to.
    expect(
      ((await outcome(sendWithRetries(call(), async () => failed(422, { detail: "d" })))) as ApiError).body,
    ).toEqual({ detail: "d" });
  });

  it("redacts the key in it", async () => {
    const error = (await outcome(sendWithRetries(call(), async () => failed(401, { echo: "s3cret" })))) as ApiError;
    expect(error.body).toEqual({ echo: "[REDACTED]" });
  });
});

describe("a failure without an answer", () => {
  it.each<[string, unknown, string]>([
    [
      "the socket error undici puts in cause",
      Object.assign(new TypeError("fetch failed"), { cause: new Error("connect ECONNREFUSED 127.0.0.1:1") }),
      "connect ECONNREFUSED 127.0.0.1:1",
    ],
    [
      "an error whose cause is not an error",
      Object.assign(new TypeError("fetch failed"), { cause: "text" }),
      "fetch failed",
    ],
    ["an error with no message", new RangeError(""), "RangeError"],
    ["something thrown that is not an error", "a string", "a string"],
  ])("says %s", async (_, thrown, said) => {
    const error = await outcome(
      sendWithRetries(call(), async () => {
        throw thrown;
      }),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe(
      `getFile could not reach the File Library at https://files.example.test (GET /p): ${said}. Check the base URL (the baseUrl option or FILE_LIBRARY_BASE_URL) and that the service is running.`,
    );
  });

  it("counts the attempts in the message when there were several", async () => {
    const error = await outcome(
      sendWithRetries(call({ maxRetries: 1 }), async () => {
        throw new Error("reset");
      }),
    );
    expect(error.message).toMatch(
      /^getFile could not reach the File Library at https:\/\/files\.example\.test \(GET \/p, after 2 attempts\): reset\./,
    );
  });

  it("adds the CORS hint in a web worker too", async () => {
    vi.stubGlobal("WorkerGlobalScope", class {});
    const error = await outcome(
      sendWithRetries(call(), async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    expect(error.message).toMatch(/and allows this origin \(CORS\)\.$/);
  });

  it("a timeout says the limit, and the attempts when there were several", async () => {
    const never = () => new Promise<RawResult>(() => {});
    const once = await outcome(sendWithRetries(call({ timeoutMs: 5 }), never));
    expect(once).toBeInstanceOf(TimeoutError);
    expect(
      once.cause,
      "an injected fetch that ignores its signal: the race's reason is no cause either",
    ).toBeUndefined();
    expect(once.message).toBe(
      "getFile could not reach the File Library at https://files.example.test (GET /p): no answer within 5 ms. Raise timeoutMs, or check that the service is running.",
    );
  });
});

describe("the caller's signal", () => {
  it("an abort during an attempt that still answers 200 is an AbortError, not a success", async () => {
    const controller = new AbortController();
    const error = await outcome(
      sendWithRetries(call({ signal: controller.signal, settlesOnAbort: true }), async () => {
        controller.abort();
        return ok();
      }),
    );
    expect(error).toBeInstanceOf(AbortError);
    expect(error.message).toBe("getFile was aborted by the caller (GET /p).");
  });

  it("an abort during the wait before a retry is an AbortError, not the signal's reason", async () => {
    const controller = new AbortController();
    const sending = sendWithRetries(call({ signal: controller.signal, maxRetries: 1 }), async () =>
      failed(503, undefined, undefined, { "retry-after-ms": "60000" }),
    );
    await vi.waitFor(() => expect(getEventListeners(controller.signal, "abort")).toHaveLength(1));
    controller.abort(new Error("the caller's reason"));
    expect(await outcome(sending)).toBeInstanceOf(AbortError);
  });

  it("leaves no listener on the caller's signal once a call ends", async () => {
    const controller = new AbortController();
    await sendWithRetries(call({ signal: controller.signal }), async () => ok());
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    await outcome(sendWithRetries(call({ signal: controller.signal }), async () => failed(400)));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("the log", () => {
  it("at debug, one line per attempt with its outcome and how long it took", async () => {
    lines.length = 0;
    const now = vi.spyOn(performance, "now");
    now.mockReturnValueOnce(1_000).mockReturnValueOnce(1_250);
    await sendWithRetries(call({ log: levelledLogger(logger, "debug") }), async () => ok());
    expect(lines).toEqual(["file-library: getFile GET /p: attempt 1/1: HTTP 200 in 250 ms"]);
  });

  it("at debug, a timed-out attempt says how long it waited", async () => {
    lines.length = 0;
    await outcome(
      sendWithRetries(
        call({ log: levelledLogger(logger, "debug"), timeoutMs: 5 }),
        () => new Promise<RawResult>(() => {}),
      ),
    );
    expect(lines).toEqual([
      expect.stringMatching(/^file-library: getFile GET \/p: attempt 1\/1: no answer within 5 ms in \d+ ms$/),
    ]);
  });

  it("at info, one line per retry, with the wait and what decided it", async () => {
    lines.length = 0;
    let attempts = 0;
    await sendWithRetries(call({ log: levelledLogger(logger, "info"), maxRetries: 1 }), async () =>
      ++attempts === 1 ? failed(503, undefined, undefined, { "retry-after-ms": "1" }) : ok(),
    );
    expect(lines).toEqual(["file-library: getFile GET /p: HTTP 503; retrying in 1 ms (retry-after-ms), attempt 2/2"]);
  });
});
