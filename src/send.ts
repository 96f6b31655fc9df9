import { causeOf } from "./cause.js";
import { truncate } from "./excerpt.js";
import { decodeLossy } from "./invalid-utf8.js";
import {
  AbortError,
  ApiError,
  BASE_URL_SETTING,
  ConnectionError,
  FileLibraryError,
  joinSentences,
  TimeoutError,
  type OperationId,
} from "./errors.js";
import type { ClientLog } from "./logger.js";
import { redactHeaders, redactString, redactValue } from "./redact.js";
import type { LimitedBody } from "./response-limit.js";
import { retryDelay, shouldRetryStatus, wait } from "./retry.js";

/** What one attempt resolved to: a 2xx body as read (`data`), or an error body (`error`, see errorBodyOf) and the limit it was cut at. */
export interface RawResult {
  response: Response;
  data?: LimitedBody | undefined;
  error?: unknown;
  cut?: number | undefined;
}

/** An error body as errors keep it, as openapi-fetch reads it: JSON when it parses, else the text; undefined when empty. */
export function errorBodyOf(bytes: Uint8Array): unknown {
  const text = decodeLossy(bytes);
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return text;
  }
}

/** One call: which operation, where, and the policy for retries, time and cancellation. */
export interface Call {
  operation: OperationId;
  method: string;
  /** The request path with the id percent-encoded, for messages. */
  path: string;
  baseUrl: string;
  secrets: readonly string[];
  log: ClientLog;
  maxRetries: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** The fetch rejects as soon as its signal aborts, as the global fetch of every runtime does: no race is needed. */
  settlesOnAbort?: boolean | undefined;
}

/** A 2xx answer with its body as the attempt read it. */
export interface Answer {
  data: LimitedBody;
  response: Response;
  attempts: number;
}

/** How much of a long error body (text) an error keeps. */
const MAX_ERROR_TEXT = 4_096;

/** An error body as an error keeps it: text cut to MAX_ERROR_TEXT, and a body cut at the limit kept only as text. */
function keptBody(body: unknown, cut: number | undefined): unknown {
  const text = cut !== undefined && typeof body !== "string" ? JSON.stringify(body) : body;
  return typeof text === "string" ? truncate(text, MAX_ERROR_TEXT) : text;
}

// A browser reports a request its CORS policy refused as a plain network failure, so the client cannot tell them apart.
const CORS_HINT = " and allows this origin (CORS)";

/** Whether the client runs in a browser page or worker (where CORS applies). */
const inBrowser = () => "document" in globalThis || "WorkerGlobalScope" in globalThis;

// The abort reason of a timed-out attempt: it tells our own timeout apart from any other abort.
const TIMED_OUT = Symbol();

/** How one attempt ended: an answer, or the failure it threw, and whether our timeout caused it. */
interface Attempt {
  result?: RawResult | undefined;
  error?: unknown;
  timedOut?: boolean;
}

/**
 * One attempt, with its own timeout linked to the caller's signal. An injected fetch may ignore its signal: then a race
 * settles the attempt at once on abort. The global fetch needs none (the race costs about 5% of a loopback call).
 * Both causes abort directly: on Node 20, a listener on our own signal would cost a third of what the client adds.
 */
async function attemptOnce(
  { timeoutMs, signal, settlesOnAbort }: Call,
  perform: (signal: AbortSignal) => Promise<RawResult>,
): Promise<Attempt> {
  const controller = new AbortController();
  let stop: ((reason: unknown) => void) | undefined;
  const abortWith = (reason: unknown) => {
    controller.abort(reason);
    stop?.(reason);
  };
  const timer = setTimeout(abortWith, timeoutMs, TIMED_OUT);
  const onAbort = () => abortWith(signal!.reason);
  signal?.addEventListener("abort", onAbort);
  try {
    const sent = perform(controller.signal);
    return {
      result: await (settlesOnAbort ? sent : Promise.race([sent, new Promise<never>((_, reject) => (stop = reject))])),
    };
  } catch (error) {
    return { error, timedOut: controller.signal.reason === TIMED_OUT };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Sends a request until it gets a 2xx, retrying connection failures, timeouts and retryable statuses
 * up to `maxRetries` times with backoff; every failure becomes one of our errors.
 */
export async function sendWithRetries(
  call: Call,
  perform: (signal: AbortSignal) => Promise<RawResult>,
): Promise<Answer> {
  const { operation, method, path, log, signal, maxRetries, timeoutMs, secrets } = call;
  // An abort before or during an attempt, or during the wait after it, leaves the loop for the AbortError.
  for (let attempt = 1; !signal?.aborted; attempt++) {
    const started = log.debug && performance.now();
    const outcome = await attemptOnce(call, perform);
    if (signal?.aborted) break;
    const response = outcome.result?.response;
    const what = redactString(
      response
        ? `HTTP ${response.status}`
        : outcome.timedOut
          ? `no answer within ${timeoutMs} ms`
          : describeCause(outcome.error),
      secrets,
    );
    log.debug?.(
      `${operation} ${method} ${path}: attempt ${attempt}/${maxRetries + 1}: ${what} in ${Math.round(performance.now() - started!)} ms`,
    );
    if (response?.ok) return { ...outcome.result!, attempts: attempt } as Answer;
    if (attempt > maxRetries || (response && !shouldRetryStatus(response.status, response.headers)))
      throw failure(call, outcome, attempt, what);
    const delay = retryDelay(attempt - 1, response?.headers);
    log.info?.(
      `${operation} ${method} ${path}: ${what}; retrying in ${delay.ms} ms (${delay.source}), attempt ${attempt + 1}/${maxRetries + 1}`,
    );
    // An abort ends the wait at once.
    await wait(delay.ms, signal);
  }
  throw new AbortError(`${operation} was aborted by the caller (${method} ${path}).`);
}

/** The error of a call whose last attempt failed (`what` says how, for messages). */
function failure(call: Call, { result, timedOut, error }: Attempt, attempts: number, what: string): FileLibraryError {
  const { operation, method, path, secrets } = call;
  const fields = { operation, attempts };
  if (result) {
    const { response, cut } = result;
    // Redacted first: redaction bounds the depth, so that keeping an excerpt never stringifies a value without end.
    const body = keptBody(redactValue(result.error, secrets), cut);
    return ApiError.generate({
      status: response.status,
      headers: redactHeaders(response.headers, secrets),
      body,
      cut,
      method,
      path,
      ...fields,
    });
  }
  const tries = attempts > 1 ? `, after ${attempts} attempts` : "";
  const sentences = [
    `${operation} could not reach the File Library at ${call.baseUrl} (${method} ${path}${tries}): ${what}`,
    timedOut
      ? "Raise timeoutMs, or check that the service is running."
      : `Check the base URL (${BASE_URL_SETTING}) and that the service is running${inBrowser() ? CORS_HINT : ""}.`,
  ];
  return new (timedOut ? TimeoutError : ConnectionError)(redactString(joinSentences(sentences), secrets), fields, {
    // A timeout's abort reason is the client's own marker, not what went wrong: a TimeoutError has no cause.
    cause: timedOut ? undefined : error,
  });
}

/** The most specific reason a fetch failed: undici puts the socket error in `cause`. */
function describeCause(error: unknown): string {
  const cause = causeOf(error);
  return cause.message || cause.name;
}
