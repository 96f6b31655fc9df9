import { redactString } from "../../src/redact.ts";
import type { FailedAttempt, NoAnswerEvidence } from "../report.ts";
import { curlFor } from "./curl.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { mediaTypeOf } from "../../lib/openapi/media-type.ts";
import type { Target } from "./target.ts";
import type { OperationId } from "../checks/types.ts";
import { authorizationFor, secretsOf, shownAuthorization, type AuthMode } from "./keys.ts";
import { RateLimiter, rateLimitSettings } from "./rate-limits.ts";
import { NoAnswerError, sendRequest, type Answered } from "./transport.ts";

export type { AuthMode } from "./keys.ts";

/** A request the suite sends, described by the operation it exercises. */
export interface ExchangeRequest {
  operationId: OperationId;
  fileId: string;
  auth?: AuthMode;
  /** A JSON body, serialised as is. */
  json?: unknown;
  /** A raw body, sent byte for byte (for bodies that are not JSON). */
  rawBody?: string;
  contentType?: string;
  accept?: string;
  /** Puts the file back: sent even past the request budget and the run's wait cap. */
  essential?: boolean;
}

/** A request as reports show it: the key redacted. */
export interface ShownRequest {
  /** Which key it sent (how a curl command sends it again). */
  auth: AuthMode;
  method: string;
  path: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** One request and its answer, with the key redacted from everything shown. */
export interface Exchange {
  operationId: OperationId;
  request: ShownRequest;
  status: number;
  headers: Headers;
  /** The media type of the answer, lower-cased, without parameters ("" when absent). */
  mediaType: string;
  /** The body as text, up to the limit the suite reads (`cut`). */
  text: string;
  /** The limit the body was cut at (FILE_LIBRARY_MAX_RESPONSE_BYTES), when it was longer: the rest was never read. */
  cut?: number | undefined;
  durationMs: number;
  /** Where the API key came back in the answer ("body", "header x-..."), before it was redacted. */
  secretEchoedIn: string[];
  /** Attempts that got no answer before this one did (a connection closed before any answer is retried once). */
  failedAttempts: FailedAttempt[];
}

/** A request of the suite got no HTTP answer: the evidence says which request, on which attempts, and what happened. */
export class ExchangeFailedError extends Error {
  override name = "ExchangeFailedError";
  constructor(
    message: string,
    readonly evidence: NoAnswerEvidence,
  ) {
    super(message);
  }
}

/** The run sent as many requests as it may (FILE_LIBRARY_MAX_REQUESTS). */
export class RequestBudgetError extends Error {
  override name = "RequestBudgetError";
}

let sent = 0;

/** The most requests a run may send: FILE_LIBRARY_MAX_REQUESTS, else 100 for a read-only live run, 300 with write checks, none against the mock. */
export function requestBudget(target: Pick<Target, "mode" | "writeChecks">, env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.FILE_LIBRARY_MAX_REQUESTS);
  if (Number.isInteger(value) && value > 0) return value;
  if (target.mode === "mock") return Number.POSITIVE_INFINITY;
  return target.writeChecks ? 300 : 100;
}


/** How long one attempt of a request may take: FILE_LIBRARY_REQUEST_TIMEOUT_MS, default 10 000. */
export function requestTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.FILE_LIBRARY_REQUEST_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : 10_000;
}
const TIMEOUT_MS = requestTimeoutMs();

/** The run's pace and its waits for 429s (the runner checked the settings before the run started). */
export const rateLimiter = new RateLimiter(rateLimitSettings());

/** How many requests the run has sent so far, retries included. */
export const requestsSent = (): number => sent;

/**
 * Sends one request to the target over plain fetch (not our client: the suite must see the raw answer). A 429 is
 * waited out and the request sent again; each 429 goes to `onRateLimited` first, to be recorded and inspected.
 */
export async function exchange(
  target: Target,
  spec: OpenApiValidator,
  request: ExchangeRequest,
  onRateLimited?: (ex: Exchange) => void,
): Promise<Exchange> {
  const { method, path: template } = spec.operation(request.operationId);
  const path = template.replace("{file_id}", encodeURIComponent(request.fileId));
  const url = `${target.baseUrl}${path}`;
  const secrets = secretsOf(target.apiKey);
  const headers: Record<string, string> = {};
  const auth = request.auth ?? "valid";
  const authorization = authorizationFor(auth, target.apiKey);
  if (authorization !== undefined) headers.authorization = authorization;
  if (request.accept) headers.accept = request.accept;
  let body: string | undefined;
  if (request.json !== undefined) body = JSON.stringify(request.json);
  if (request.rawBody !== undefined) body = request.rawBody;
  if (body !== undefined) headers["content-type"] = request.contentType ?? "application/json";

  const shownHeaders = { ...headers };
  const shownKey = shownAuthorization(auth, target.apiKey);
  if (shownKey !== undefined) shownHeaders.authorization = shownKey;
  const shown: ShownRequest = { auth, method, path, url, headers: shownHeaders, ...(body === undefined ? {} : { body: redactString(body, secrets) }) };

  const takeFromBudget = () => {
    if (!request.essential) takeOneRequest(target);
  };
  const toExchange = (answered: Answered, failedAttempts: FailedAttempt[] = []) =>
    exchangeOf(request.operationId, shown, answered, secrets, failedAttempts);
  let delivered;
  try {
    delivered = await sendRequest(
      url,
      { method, headers, body: body ?? null },
      {
        timeoutMs: TIMEOUT_MS,
        beforeAttempt: takeFromBudget,
        rateLimiter,
        essential: request.essential,
        onRateLimited: onRateLimited && ((answered) => onRateLimited(toExchange(answered))),
      },
    );
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error;
    const evidence = { operationId: request.operationId, method, path, url, curl: curlFor(shown), attempts: error.attempts };
    throw new ExchangeFailedError(`${request.operationId}: ${redactString(error.message, secrets)}`, evidence);
  }
  return toExchange(delivered, delivered.failedAttempts);
}

/** Counts one request against the run's budget; throws RequestBudgetError when it is spent. */
function takeOneRequest(target: Target): void {
  if (sent >= requestBudget(target)) {
    throw new RequestBudgetError(`the run's request budget of ${requestBudget(target)} is spent (FILE_LIBRARY_MAX_REQUESTS raises it)`);
  }
  sent++;
}

/** What fetching a URL the server handed out gave: its final status, and its content's size. */
export interface Followed {
  status: number;
  /** The content's bytes, decoded if it came compressed (up to `cut`). */
  bytes: number;
  /** The limit the content was cut at (FILE_LIBRARY_MAX_RESPONSE_BYTES), when it was longer: its size is unknown. */
  cut?: number | undefined;
}

/**
 * Fetches a URL the server handed out (the signed download URL), following redirects, as a request of the run:
 * within its budget and pace, its 429s waited out.
 */
export async function followUrl(target: Target, url: string): Promise<Followed> {
  const policy = { timeoutMs: TIMEOUT_MS, beforeAttempt: () => takeOneRequest(target), rateLimiter };
  const { response, bytes, cut } = await sendRequest(url, { method: "GET", redirect: "follow" }, policy);
  return { status: response.status, bytes, cut };
}

/** An answer as the checks see it: every secret redacted, and where any came back noted first. */
function exchangeOf(operationId: OperationId, request: ShownRequest, answered: Answered, secrets: string[], failedAttempts: FailedAttempt[]): Exchange {
  const { response, text, durationMs, cut } = answered;
  const secretEchoedIn: string[] = [];
  const echoes = (value: string) => secrets.some((secret) => value.includes(secret));
  if (echoes(text)) secretEchoedIn.push("the body");
  const headersShown = new Headers();
  response.headers.forEach((value, name) => {
    if (echoes(value)) secretEchoedIn.push(`header ${name}`);
    headersShown.append(name, redactString(value, secrets));
  });
  return {
    operationId,
    request,
    status: response.status,
    headers: headersShown,
    mediaType: mediaTypeOf(response.headers.get("content-type")),
    text: redactString(text, secrets),
    cut,
    durationMs,
    secretEchoedIn,
    failedAttempts,
  };
}

/** The answer's body parsed as JSON, or undefined when it is not JSON. */
export function jsonBody(ex: Exchange): unknown {
  try {
    return JSON.parse(ex.text);
  } catch {
    return undefined;
  }
}
