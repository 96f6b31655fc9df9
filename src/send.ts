import { AbortError, ApiError, ConnectionError, joinSentences, TimeoutError, type OperationId } from "./errors.js";
import type { ClientLog } from "./logger.js";
import { redactHeaders, redactString, redactValue } from "./redact.js";
import { retryDelay, shouldRetryStatus, wait, type RetryDelay } from "./retry.js";

/** What openapi-fetch resolves to when every body is read as text. */
export interface TextResult {
  data?: string | undefined;
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

/** A 2xx answer with its body read as text. */
export interface Answer {
  text: string;
  response: Response;
  attempts: number;
}

// A browser reports a request its CORS policy refused as a plain network failure, so the client cannot tell them apart.
const CORS_HINT =
  "In a browser, a request that the server's CORS policy refuses fails exactly like this, and the page cannot tell the two apart: check that the server allows this page's origin (Access-Control-Allow-Origin); the browser's console names the refusal.";

/** Whether the client runs in a browser page or worker (where CORS applies). */
const inBrowser = () => "document" in globalThis || "WorkerGlobalScope" in globalThis;

// The abort reason of a timed-out attempt: it tells our own timeout apart from any other abort.
const TIMED_OUT = Symbol("attempt timed out");

type Outcome =
  | { kind: "answer"; result: TextResult }
  | { kind: "aborted" }
  | { kind: "timeout" }
  | { kind: "network"; cause: unknown };

/**
 * Sends a request until it gets a 2xx, retrying connection failures, timeouts and retryable statuses
 * up to `maxRetries` times with backoff; every failure becomes one of our errors.
 */
export async function sendWithRetries(call: Call, perform: (signal: AbortSignal) => Promise<TextResult>): Promise<Answer> {
  const { operation, method, path, log, maxRetries, signal } = call;
  const where = () => `${operation} ${method} ${path}`;
  const total = maxRetries + 1;
  const aborted = () => new AbortError(`${operation} was aborted by the caller (${method} ${path}).`);
  if (signal?.aborted) throw aborted();

  for (let attempt = 1; ; attempt++) {
    log.debug(() => `${where()}: attempt ${attempt}/${total}`);
    const started = log.enabled("debug") ? performance.now() : 0;
    const outcome = await attemptOnce(perform, call.timeoutMs, signal);
    let reason: string;
    let delay: RetryDelay;
    const retriesLeft = attempt <= maxRetries;

    if (outcome.kind === "aborted") throw aborted();
    if (outcome.kind === "answer") {
      const { response } = outcome.result;
      log.debug(() => `${where()}: HTTP ${response.status} in ${Math.round(performance.now() - started)} ms`);
      if (response.ok) return { text: outcome.result.data ?? "", response, attempts: attempt };
      if (!retriesLeft || !shouldRetryStatus(response.status, response.headers)) {
        throw ApiError.generate({
          status: response.status,
          headers: redactHeaders(response.headers, call.secrets),
          body: redactValue(outcome.result.error, call.secrets),
          operation,
          method,
          path,
          attempts: attempt,
        });
      }
      reason = `HTTP ${response.status}`;
      delay = retryDelay(attempt - 1, response.headers);
    } else {
      const timedOut = outcome.kind === "timeout";
      const cause = timedOut ? `no answer within ${call.timeoutMs} ms` : describeCause(outcome.cause);
      if (!retriesLeft) {
        const tries = attempt > 1 ? ` (${attempt} attempts)` : "";
        if (timedOut) {
          throw new TimeoutError(
            `${operation} timed out: ${method} ${path} got no answer within ${call.timeoutMs} ms${tries}. ` +
              "Raise timeoutMs if the service is slow, or check that it is running.",
            operation,
            attempt,
          );
        }
        throw new ConnectionError(
          redactString(
            joinSentences([
              `${operation} could not reach the File Library at ${call.baseUrl} (${method} ${path})${tries}: ${cause}`,
              "Check the base URL (the baseUrl option or FILE_LIBRARY_BASE_URL) and that the service is running.",
              ...(inBrowser() ? [CORS_HINT] : []),
            ]),
            call.secrets,
          ),
          operation,
          attempt,
          { cause: outcome.kind === "network" ? outcome.cause : undefined },
        );
      }
      reason = cause;
      delay = retryDelay(attempt - 1, undefined);
    }

    log.info(() => `${where()}: ${redactString(reason, call.secrets)}; retrying in ${delay.ms} ms (${delay.source}), attempt ${attempt + 1}/${total}`);
    try {
      await wait(delay.ms, signal);
    } catch {
      throw aborted();
    }
  }
}

/** One attempt under its own timeout, linked to the caller's signal; cleans up its timer and listener. */
async function attemptOnce(
  perform: (signal: AbortSignal) => Promise<TextResult>,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Promise<Outcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
  const onCallerAbort = () => controller.abort(callerSignal!.reason);
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  try {
    // The race rejects at once on abort, even with an injected fetch that ignores its signal.
    const result = await Promise.race([perform(controller.signal), rejectOnAbort(controller.signal)]);
    return { kind: "answer", result };
  } catch (cause) {
    if (callerSignal?.aborted) return { kind: "aborted" };
    if (controller.signal.reason === TIMED_OUT) return { kind: "timeout" };
    return { kind: "network", cause };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
  }
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
}

/** The most specific reason a fetch failed: undici puts the socket error in `cause`. */
function describeCause(error: unknown): string {
  const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (inner instanceof Error) return inner.message || inner.name;
  return String(inner);
}
