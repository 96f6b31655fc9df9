import { AbortError, ApiError, BASE_URL_SETTING, ConnectionError, joinSentences, TimeoutError, type OperationId } from "./errors.js";
import type { ClientLog } from "./logger.js";
import { redactHeaders, redactString, redactValue } from "./redact.js";
import { cutAt } from "./response-limit.js";
import { retryDelay, shouldRetryStatus, wait } from "./retry.js";

/** What openapi-fetch resolves to when 2xx bodies are read as bytes (error bodies it reads as text, then JSON if it parses). */
export interface RawResult {
  data?: ArrayBuffer | undefined;
  error?: unknown;
  response: Response;
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
}

/** A 2xx answer with its body's bytes. */
export interface Answer {
  body: ArrayBuffer | undefined;
  response: Response;
  attempts: number;
}

/** How much of a long error body (text) an error keeps. */
const MAX_ERROR_TEXT = 4_096;

/** An error body as an error keeps it: text cut to MAX_ERROR_TEXT, and a body cut at the limit kept only as text. */
function keptBody(body: unknown, cut: number | undefined): unknown {
  const text = cut !== undefined && typeof body !== "string" ? JSON.stringify(body) : body;
  return typeof text === "string" && text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text;
}

// A browser reports a request its CORS policy refused as a plain network failure, so the client cannot tell them apart.
const CORS_HINT =
  "In a browser, a request that the server's CORS policy refuses fails exactly like this, and the page cannot tell the two apart: check that the server allows this page's origin (Access-Control-Allow-Origin); the browser's console names the refusal.";

/** Whether the client runs in a browser page or worker (where CORS applies). */
const inBrowser = () => "document" in globalThis || "WorkerGlobalScope" in globalThis;

// The abort reason of a timed-out attempt: it tells our own timeout apart from any other abort.
const TIMED_OUT = Symbol("attempt timed out");

/**
 * Sends a request until it gets a 2xx, retrying connection failures, timeouts and retryable statuses
 * up to `maxRetries` times with backoff; every failure becomes one of our errors.
 */
export async function sendWithRetries(call: Call, perform: (signal: AbortSignal) => Promise<RawResult>): Promise<Answer> {
  const { operation, method, path, log, maxRetries, timeoutMs, signal, secrets } = call;
  const where = () => `${operation} ${method} ${path}`;
  const aborted = () => new AbortError(`${operation} was aborted by the caller (${method} ${path}).`);
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw aborted();
    // Each attempt has its own timeout, linked to the caller's signal; the race settles at once on abort, even with
    // an injected fetch that ignores its signal. Both causes settle it directly: on Node 20, a listener on our own
    // signal would cost a third of what the client adds to a call.
    const controller = new AbortController();
    let stop!: (reason: unknown) => void;
    const abort = new Promise<never>((_, reject) => (stop = reject));
    const abortWith = (reason: unknown) => {
      controller.abort(reason);
      stop(reason);
    };
    const timer = setTimeout(abortWith, timeoutMs, TIMED_OUT);
    const onAbort = () => abortWith(signal!.reason);
    signal?.addEventListener("abort", onAbort);
    const started = performance.now();
    let result: RawResult | undefined;
    let failure: unknown;
    try {
      result = await Promise.race([perform(controller.signal), abort]);
    } catch (error) {
      failure = error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
    if (signal?.aborted) throw aborted();
    const response = result?.response;
    const timedOut = controller.signal.reason === TIMED_OUT;
    // Built only when a log line or an error needs it: most calls need neither.
    const outcome = () => (response ? `HTTP ${response.status}` : timedOut ? `no answer within ${timeoutMs} ms` : describeCause(failure));
    log.debug(() => `${where()}: attempt ${attempt}/${maxRetries + 1}: ${outcome()} in ${Math.round(performance.now() - started)} ms`);
    if (response?.ok) return { body: result!.data, response, attempts: attempt };

    if (attempt > maxRetries || (response && !shouldRetryStatus(response.status, response.headers))) {
      const fields = { operation, attempts: attempt };
      if (response) {
        const { status, headers } = response;
        const cut = cutAt(response);
        // Redacted first: redaction bounds the depth, so that keeping an excerpt never stringifies a value without end.
        const body = keptBody(redactValue(result!.error, secrets), cut);
        throw ApiError.generate({ status, headers: redactHeaders(headers, secrets), body, cut, method, path, ...fields });
      }
      const tries = attempt > 1 ? ` (${attempt} attempts)` : "";
      if (timedOut) {
        throw new TimeoutError(
          `${operation} timed out: ${method} ${path} got no answer within ${timeoutMs} ms${tries}. Raise timeoutMs if the service is slow, or check that it is running.`,
          fields,
        );
      }
      const sentences = [
        `${operation} could not reach the File Library at ${call.baseUrl} (${method} ${path})${tries}: ${outcome()}`,
        `Check the base URL (${BASE_URL_SETTING}) and that the service is running.`,
        inBrowser() ? CORS_HINT : "",
      ];
      throw new ConnectionError(redactString(joinSentences(sentences), secrets), fields, { cause: failure });
    }
    const delay = retryDelay(attempt - 1, response?.headers);
    log.info(() => `${where()}: ${redactString(outcome(), secrets)}; retrying in ${delay.ms} ms (${delay.source}), attempt ${attempt + 1}/${maxRetries + 1}`);
    try {
      await wait(delay.ms, signal);
    } catch {
      throw aborted();
    }
  }
}

/** The most specific reason a fetch failed: undici puts the socket error in `cause`. */
function describeCause(error: unknown): string {
  const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (inner instanceof Error) return inner.message || inner.name;
  return String(inner);
}
