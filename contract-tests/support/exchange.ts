import { REDACTED, redactString } from "../../src/redact.ts";
import type { FailedAttempt, NoAnswerEvidence } from "../report.ts";
import { curlFor } from "./curl.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { mediaTypeOf } from "../../lib/openapi/media-type.ts";
import type { Target } from "./target.ts";
import type { OperationId } from "../checks/types.ts";
import { NoAnswerError, sendRequest } from "./transport.ts";

/** Which Authorization header to send. */
export type AuthMode = "valid" | "none" | "wrong";

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
}

/** A request as reports show it: the key redacted. */
export interface ShownRequest {
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
  text: string;
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

/** A key no server issues, for the wrong-key checks. */
export const WRONG_API_KEY = "file-library-contract-wrong-key";

/** How long one attempt of a request may take: FILE_LIBRARY_REQUEST_TIMEOUT_MS, default 10 000. */
export function requestTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.FILE_LIBRARY_REQUEST_TIMEOUT_MS);
  return Number.isFinite(value) && value > 0 ? value : 10_000;
}
const TIMEOUT_MS = requestTimeoutMs();

/** Sends one request to the target over plain fetch (not our client: the suite must see the raw answer). */
export async function exchange(target: Target, spec: OpenApiValidator, request: ExchangeRequest): Promise<Exchange> {
  const { method, path: template } = spec.operation(request.operationId);
  const path = template.replace("{file_id}", encodeURIComponent(request.fileId));
  const url = `${target.baseUrl}${path}`;
  const headers: Record<string, string> = {};
  const auth = request.auth ?? "valid";
  if (auth !== "none") headers.authorization = `Bearer ${auth === "valid" ? target.apiKey : WRONG_API_KEY}`;
  if (request.accept) headers.accept = request.accept;
  let body: string | undefined;
  if (request.json !== undefined) body = JSON.stringify(request.json);
  if (request.rawBody !== undefined) body = request.rawBody;
  if (body !== undefined) headers["content-type"] = request.contentType ?? "application/json";

  const shownHeaders = { ...headers };
  if (shownHeaders.authorization) shownHeaders.authorization = auth === "valid" ? `Bearer ${REDACTED}` : shownHeaders.authorization;
  const shown = { method, path, url, headers: shownHeaders, ...(body === undefined ? {} : { body: redactString(body, [target.apiKey]) }) };

  const takeFromBudget = () => {
    if (sent >= requestBudget(target)) {
      throw new RequestBudgetError(`the run's request budget of ${requestBudget(target)} is spent (FILE_LIBRARY_MAX_REQUESTS raises it)`);
    }
    sent++;
  };
  let delivered;
  try {
    delivered = await sendRequest(url, { method, headers, body: body ?? null }, { timeoutMs: TIMEOUT_MS, beforeAttempt: takeFromBudget });
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error;
    const evidence = { operationId: request.operationId, method, path, url, curl: curlFor(shown), attempts: error.attempts };
    throw new ExchangeFailedError(`${request.operationId}: ${redactString(error.message, [target.apiKey])}`, evidence);
  }
  const { response, text, durationMs, failedAttempts } = delivered;
  const secretEchoedIn: string[] = [];
  if (text.includes(target.apiKey)) secretEchoedIn.push("the body");
  const headersShown = new Headers();
  response.headers.forEach((value, name) => {
    if (value.includes(target.apiKey)) secretEchoedIn.push(`header ${name}`);
    headersShown.append(name, redactString(value, [target.apiKey]));
  });
  return {
    operationId: request.operationId,
    request: shown,
    status: response.status,
    headers: headersShown,
    mediaType: mediaTypeOf(response.headers.get("content-type")),
    text: redactString(text, [target.apiKey]),
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
