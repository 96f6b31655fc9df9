import type { Agent as AgentType } from "undici";
import { causeOf } from "../../src/cause.ts";
import { decodeLossy, invalidUtf8 } from "../../src/invalid-utf8.ts";
import { readLimited } from "../../src/response-limit.ts";
import { dispatch, newAgent, type DispatchInit, type RawAnswer } from "./dispatch.ts";
import { NoAnswerError, REFUSED, type FailedAttempt } from "./no-answer.ts";
import type { RateLimiter } from "./rate-limits.ts";

/** An answer, its body read up to the limit (FILE_LIBRARY_MAX_RESPONSE_BYTES). */
export interface Answered {
  /** Its status and headers (the body is `text`). */
  response: Pick<RawAnswer, "status" | "headers">;
  text: string;
  /** The limit the body was cut at, when it was longer: the rest was never read. */
  cut?: number | undefined;
  /** How many bytes of the body were read (after decompression). */
  bytes: number;
  /** Where the body stops being UTF-8, its bytes there escaped, when it does (`text` then has U+FFFD in their place). */
  invalidUtf8?: string | undefined;
  /** Milliseconds from sending the answered attempt to the end of its body. */
  durationMs: number;
}

/** An answer read whole, and the attempts that got none before it. */
export interface Delivered extends Answered {
  failedAttempts: FailedAttempt[];
}

/** What every request of a transport is held to. */
export interface TransportLimits {
  /** How long one attempt may take (FILE_LIBRARY_REQUEST_TIMEOUT_MS). */
  timeoutMs: number;
  /** The most bytes read of one answer, after decompression (FILE_LIBRARY_MAX_RESPONSE_BYTES): whatever a server sends, a run holds no more. */
  maxBytes: number;
}

/** How to send one request: what runs before each attempt (the request budget), and 429s. */
export interface SendPolicy {
  /** Called before every attempt, retries included; throwing stops the request. */
  beforeAttempt?: () => void;
  /** Paces the requests and waits out 429s; without one, a 429 is an answer like any other. */
  rateLimiter?: RateLimiter | undefined;
  /** Held to the rate limiter's cap per wait only (putting the file back). */
  essential?: boolean | undefined;
  /** Hears of every 429 before the request is sent again, for the caller to record and inspect. */
  onRateLimited?: ((answer: Answered) => void) | undefined;
  /** Sent on a connection of its own, opened for it and closed after: never one that carried an earlier request. */
  freshConnection?: boolean | undefined;
}

/** A request: its method, headers and body, and whether redirects are followed. */
export type SendInit = Omit<DispatchInit, "signal" | "closeConnection">;

// RFC 9110, 9.2.2: repeating these has the same effect as sending them once.
const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]);
/** What the previous answer from an origin said about its connection: when it came, and the keep-alive timeout it advertised. */
interface PreviousAnswer {
  at: number;
  keepAlive: string | null;
}

/**
 * The run's HTTP connections: a pool of the run's own (undici's dispatch, which reaches any port; fetch refuses the
 * "bad ports"), made anew for each retry, so that a retry is sent on a connection that is sure to be new. An origin
 * that closed a connection unanswered gets a connection of its own for each later request (docs/decisions.md,
 * D23).
 */
export class Transport {
  private agent: AgentType | undefined;
  private readonly lastAnswer = new Map<string, PreviousAnswer>();
  private readonly closesConnections = new Set<string>();

  constructor(readonly limits: TransportLimits) {}

  /**
   * Sends one request. A connection the server closed or reset before any answer is retried once, for idempotent
   * methods, on a new connection: that is the keep-alive race every HTTP client meets (the server retires an idle
   * connection just as the client reuses it), and browsers and Go's net/http retry it the same way. Timeouts are not
   * retried. With a rate limiter, a 429 is waited out as the server asks and the request sent again
   * (docs/decisions.md, D16).
   */
  send(url: string, init: SendInit, policy: SendPolicy = {}): Promise<Delivered> {
    return sendRequest(this, url, init, policy);
  }

  /** Sends over the run's connections, or over `dispatcher` (a connection of its own). */
  dispatch(url: string, init: DispatchInit, dispatcher: AgentType | undefined = undefined): Promise<RawAnswer> {
    const origin = new URL(url).origin;
    return dispatch(dispatcher ?? (this.agent ??= newAgent()), url, {
      ...init,
      closeConnection: init.closeConnection || this.closesConnections.has(origin),
    });
  }

  /**
   * Lets go of every kept-alive connection: the next request opens a new one. Any other idle connection of the pool
   * may be as stale as the one that just failed, and undici would hand it out next. The origin's later requests each
   * get a connection of their own: a server that closed one unanswered (retiring it early, or dropping every so many
   * requests) would close the next ones too, and each retry is a request of the run's budget.
   */
  renewConnections(origin: string): void {
    this.closesConnections.add(origin);
    const old = this.agent;
    this.agent = newAgent();
    void old?.close().catch(() => {});
  }

  /** What the previous answer from the origin said about its connection. */
  previousAnswer(origin: string): PreviousAnswer | undefined {
    return this.lastAnswer.get(origin);
  }

  /** Remembers when an answer came from the origin, and the keep-alive it advertised. */
  answered(origin: string, response: Pick<RawAnswer, "headers">): void {
    this.lastAnswer.set(origin, { at: performance.now(), keepAlive: response.headers.get("keep-alive") });
  }

  /** Closes the run's own connections, if a retry made any; the transport can still send, on new ones. */
  async close(): Promise<void> {
    const old = this.agent;
    this.agent = undefined;
    await old?.close();
  }
}

async function sendRequest(transport: Transport, url: string, init: SendInit, policy: SendPolicy): Promise<Delivered> {
  // A connection of the request's own: one connection, no pipelining, closed once the answer is read.
  const own = policy.freshConnection ? newAgent({ connections: 1, pipelining: 0 }) : undefined;
  try {
    return await attempts(transport, url, init, policy, own);
  } finally {
    void own?.close().catch(() => {});
  }
}

async function attempts(
  transport: Transport,
  url: string,
  init: SendInit,
  policy: SendPolicy,
  own: AgentType | undefined,
): Promise<Delivered> {
  const { timeoutMs, maxBytes } = transport.limits;
  const origin = new URL(url).origin;
  const failedAttempts: FailedAttempt[] = [];
  let connectionRetried = false;
  let rateLimited = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      policy.beforeAttempt?.();
    } catch (error) {
      // Out of budget for the retry: the failure stands, with the reason it was not retried.
      if (failedAttempts.length === 0) throw error;
      failedAttempts.at(-1)!.reason += `; not retried: ${(error as Error).message}`;
      throw new NoAnswerError(init.method, url, failedAttempts);
    }
    await policy.rateLimiter?.pace();
    const previous = transport.previousAnswer(origin);
    const started = performance.now();
    let response: RawAnswer;
    // One deadline for the whole attempt, headers and body: FILE_LIBRARY_REQUEST_TIMEOUT_MS.
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      // Redirects are answers to check, unless the caller follows them (a signed URL may redirect to storage).
      response = await transport.dispatch(url, { redirect: "manual", ...init, signal: deadline }, own);
    } catch (error) {
      const failed = describeFailure(error, attempt, performance.now() - started, timeoutMs, previous, started);
      failedAttempts.push(failed.attempt);
      if (failed.retryable && !connectionRetried && IDEMPOTENT.has(init.method)) {
        connectionRetried = true;
        transport.renewConnections(origin);
        continue;
      }
      throw new NoAnswerError(init.method, url, failedAttempts);
    }
    let text: string;
    let bytes: number;
    let cut: number | undefined;
    let undecodable: string | undefined;
    try {
      const body = await readLimited(response.body, maxBytes);
      bytes = body.bytes.byteLength;
      // The BOM kept: json_well_formed judges it (RFC 8259 8.1: JSON must not start with one).
      text = decodeLossy(body.bytes);
      cut = body.cut ? maxBytes : undefined;
      // A cut may fall within a character: only a whole body is judged.
      if (!cut && text.includes("\uFFFD")) undecodable = invalidUtf8(body.bytes);
    } catch (error) {
      // The suite's own deadline stopped the read: said as the suite's, not blamed on the server.
      const timedOut = deadline.aborted;
      // An answer came, then broke off: not retried, a server that cuts its bodies short is worth reporting.
      const cause = causeOf(error) as Cause;
      failedAttempts.push({
        attempt,
        reason: timedOut
          ? `the answer (HTTP ${response.status}) began, but its body did not end within the suite's ${timeoutMs} ms (FILE_LIBRARY_REQUEST_TIMEOUT_MS)`
          : `the answer (HTTP ${response.status}) broke off while its body was read: the server closed the connection (${cause.message})`,
        afterMs: Math.round(performance.now() - started),
        closedByServer: !timedOut,
      });
      throw new NoAnswerError(init.method, url, failedAttempts);
    }
    transport.answered(origin, response);
    const durationMs = performance.now() - started;
    if (response.status === 429 && policy.rateLimiter) {
      policy.onRateLimited?.({ response, text, bytes, durationMs, cut, invalidUtf8: undecodable });
      await policy.rateLimiter.waitOut(response.headers, rateLimited++, policy.essential);
      continue;
    }
    return { response, text, bytes, durationMs, failedAttempts, cut, invalidUtf8: undecodable };
  }
}

/** The socket's error as undici reports it: a code, and the socket with what it read. */
type Cause = Error & { code?: string; socket?: { bytesRead?: number } };

function describeFailure(
  error: unknown,
  attempt: number,
  elapsed: number,
  timeoutMs: number,
  previous: PreviousAnswer | undefined,
  startedAt: number,
): { attempt: FailedAttempt; retryable: boolean } {
  const afterMs = Math.round(elapsed);
  if (error instanceof Error && error.name === "TimeoutError") {
    return {
      attempt: { attempt, reason: `no answer within ${timeoutMs} ms`, afterMs, closedByServer: false },
      retryable: false,
    };
  }
  const cause = causeOf(error) as Cause;
  const code = cause.code ?? "";
  const closed: Record<string, string> = {
    UND_ERR_SOCKET: `the server closed the connection before answering (${cause.message})`,
    ECONNRESET: "the server reset the connection before answering (ECONNRESET)",
    EPIPE: "the server closed the connection while the request was being sent (EPIPE)",
  };
  const reason = closed[code] ?? (code === "ECONNREFUSED" ? REFUSED : cause.message);
  const closedByServer = code in closed;
  const bytesRead = cause.socket?.bytesRead;
  return {
    attempt: {
      attempt,
      reason,
      afterMs,
      closedByServer,
      ...(bytesRead === undefined ? {} : { reusedConnection: bytesRead > 0 }),
      ...(previous ? { idleMs: Math.round(startedAt - previous.at) } : {}),
      ...(previous?.keepAlive ? { keepAlive: previous.keepAlive } : {}),
    },
    retryable: closedByServer,
  };
}
