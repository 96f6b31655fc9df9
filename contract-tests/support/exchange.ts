import { REDACTED, redactString } from "../../src/redact.ts";
import type { OpenApiValidator } from "./openapi-validator.ts";
import { mediaTypeOf } from "./openapi-validator.ts";
import type { Target } from "./target.ts";
import type { OperationId } from "../checks/types.ts";

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

/** One request and its answer, with the key redacted from everything shown. */
export interface Exchange {
  operationId: OperationId;
  request: { method: string; path: string; url: string; headers: Record<string, string>; body?: string };
  status: number;
  headers: Headers;
  /** The media type of the answer, lower-cased, without parameters ("" when absent). */
  mediaType: string;
  text: string;
  durationMs: number;
  /** Where the API key came back in the answer ("body", "header x-..."), before it was redacted. */
  secretEchoedIn: string[];
}

/** The run sent as many requests as it may (FILE_LIBRARY_MAX_REQUESTS). */
export class RequestBudgetError extends Error {
  override name = "RequestBudgetError";
}

let sent = 0;

/** The most requests a run may send: FILE_LIBRARY_MAX_REQUESTS, else 100 for a read-only live run, 300 with write checks, none against the mock. */
export function requestBudget(target: Target, env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.FILE_LIBRARY_MAX_REQUESTS);
  if (Number.isInteger(value) && value > 0) return value;
  if (target.mode === "mock") return Number.POSITIVE_INFINITY;
  return target.writeChecks ? 300 : 100;
}

/** A key no server issues, for the wrong-key checks. */
export const WRONG_API_KEY = "file-library-contract-wrong-key";
const TIMEOUT_MS = Number(process.env.FILE_LIBRARY_REQUEST_TIMEOUT_MS ?? 10_000);

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

  if (sent >= requestBudget(target)) {
    throw new RequestBudgetError(`the run's request budget of ${requestBudget(target)} is spent (FILE_LIBRARY_MAX_REQUESTS raises it)`);
  }
  sent++;
  const started = performance.now();
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { method, headers, body: body ?? null, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
    text = await response.text();
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError"
      ? `no answer within ${TIMEOUT_MS} ms`
      : (error as Error & { cause?: Error }).cause?.message ?? String(error);
    throw new Error(`${request.operationId}: ${method} ${path} got no HTTP answer from ${target.baseUrl}: ${reason}`);
  }
  const durationMs = performance.now() - started;
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
