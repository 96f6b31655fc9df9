import { redactSecrets } from "../../lib/redact-secrets.ts";
import { BOM } from "../../src/response-body.ts";
import { NoAnswerError, type FailedAttempt, type NoAnswerEvidence } from "./no-answer.ts";
import { curlFor, type ShownRequest } from "./curl.ts";
import { mediaTypeOf } from "../../lib/openapi/media-type.ts";
import type { OperationId } from "../../src/errors.ts";
import { authorizationFor, secretsOf, sentCredential, shownAuthorization, type AuthMode } from "../inputs/keys.ts";
import type { RequestContext } from "./request-context.ts";
import { echoesOf } from "./secret-echo.ts";
import type { Answered } from "./transport.ts";

export type { AuthMode } from "../inputs/keys.ts";
export type { ShownRequest } from "./curl.ts";

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
  /** Sent on a new connection of its own, not one of the run's kept-alive ones (a read that must not see a writer's cache). */
  freshConnection?: boolean;
}

/**
 * One request and its answer. The answer is as received, for the checks to judge the bytes the server sent; the request
 * is as reports show it (the key redacted), and `redact` is for anything else printed or written of the exchange.
 */
export interface Exchange {
  operationId: OperationId;
  request: ShownRequest;
  status: number;
  headers: Headers;
  /** The media type of the answer, lower-cased, without parameters ("" when absent). */
  mediaType: string;
  /** The body as text, as received, up to the limit the suite reads (`cut`). */
  text: string;
  /** The limit the body was cut at (FILE_LIBRARY_MAX_RESPONSE_BYTES), when it was longer: the rest was never read. */
  cut?: number | undefined;
  /** Where the body stops being UTF-8, its bytes there escaped (`\xE9`), when it does; `text` has U+FFFD in their place. */
  invalidUtf8?: string | undefined;
  durationMs: number;
  /** Where the API key, or what the request sent in its place, came back in the answer ("the body", "header x-..."). */
  secretEchoedIn: string[];
  /** Redacts the key and its near misses from a text about this exchange, for what is printed or written, never for what is judged. */
  redact(text: string): string;
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

/**
 * Sends one request to the target over plain fetch (not our client: the suite must see the raw answer). A 429 is
 * waited out and the request sent again; each 429 goes to `onRateLimited` first, to be recorded and inspected.
 */
export async function exchange(
  context: RequestContext,
  request: ExchangeRequest,
  onRateLimited?: (ex: Exchange) => void,
): Promise<Exchange> {
  const { target, spec, budget, rateLimiter, transport } = context;
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
  const shown: ShownRequest = {
    auth,
    method,
    path,
    url,
    headers: shownHeaders,
    ...(body === undefined ? {} : { body: redactSecrets(body, secrets) }),
  };

  const takeFromBudget = () => {
    if (!request.essential) budget.take();
  };
  const credentials = [target.apiKey, sentCredential(auth, target.apiKey)].filter((c): c is string => c !== undefined);
  const toExchange = (answered: Answered, failedAttempts: FailedAttempt[] = []) =>
    exchangeFrom(
      request.operationId,
      shown,
      { ...answered, status: answered.response.status, headers: answered.response.headers },
      { secrets, credentials },
      failedAttempts,
    );
  let delivered;
  try {
    delivered = await transport.send(
      url,
      { method, headers, body: body ?? null },
      {
        beforeAttempt: takeFromBudget,
        rateLimiter,
        essential: request.essential,
        freshConnection: request.freshConnection,
        onRateLimited: onRateLimited && ((answered) => onRateLimited(toExchange(answered))),
      },
    );
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error;
    const evidence = {
      operationId: request.operationId,
      method,
      path,
      url,
      curl: curlFor(shown),
      attempts: error.attempts,
    };
    throw new ExchangeFailedError(`${request.operationId}: ${redactSecrets(error.message, secrets)}`, evidence);
  }
  return toExchange(delivered, delivered.failedAttempts);
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
export async function followUrl(context: RequestContext, url: string): Promise<Followed> {
  const policy = { beforeAttempt: () => context.budget.take(), rateLimiter: context.rateLimiter };
  const { response, bytes, cut } = await context.transport.send(url, { method: "GET", redirect: "follow" }, policy);
  return { status: response.status, bytes, cut };
}

/** An answer as any runner got it (the suite's transport, the proxy): its status, headers and body as text. */
export interface AnswerSeen {
  status: number;
  /** The answer's headers, as the exchange keeps them: the caller does not change them afterwards. */
  headers: Headers;
  /** The body as text, up to the limit read (`cut`). */
  text: string;
  cut?: number | undefined;
  invalidUtf8?: string | undefined;
  durationMs: number;
}

/** What an exchange keeps out of what is shown (`secrets`: the key and its near misses), and looks for in an echo (`credentials`). */
export interface ExchangeSecrets {
  secrets: readonly string[];
  /** The key, and what the request sent in its place (a near miss): an answer that holds one echoes it. */
  credentials: readonly string[];
}

/**
 * An answer as the checks see it: as received, with where a credential came back noted. Nothing is redacted here:
 * a check judges the bytes the server sent, whatever the key is spelt like; `redact` serves what is printed.
 */
export function exchangeFrom(
  operationId: OperationId,
  request: ShownRequest,
  answer: AnswerSeen,
  { secrets, credentials }: ExchangeSecrets,
  failedAttempts: FailedAttempt[] = [],
): Exchange {
  const { text, durationMs, cut, invalidUtf8 } = answer;
  const { headers } = answer;
  return {
    operationId,
    request,
    status: answer.status,
    headers,
    mediaType: mediaTypeOf(answer.headers.get("content-type")),
    text,
    cut,
    ...(invalidUtf8 === undefined ? {} : { invalidUtf8 }),
    durationMs,
    secretEchoedIn: echoesOf(answer, credentials),
    failedAttempts,
    redact: (shown) => redactSecrets(shown, secrets),
  };
}

// Each exchange's body parsed once, however many checks read it (the proxy judges every answer of real traffic).
const parsed = new WeakMap<Exchange, unknown>();

/** The answer's body parsed as JSON, or undefined when it is not JSON. Checks must not change what it returns. */
export function jsonBody(ex: Exchange): unknown {
  if (parsed.has(ex)) return parsed.get(ex);
  let body: unknown;
  try {
    // A BOM before the JSON is json_well_formed's finding; what the body holds is read past it.
    body = JSON.parse(ex.text.startsWith(BOM) ? ex.text.slice(1) : ex.text);
  } catch {
    body = undefined;
  }
  parsed.set(ex, body);
  return body;
}
