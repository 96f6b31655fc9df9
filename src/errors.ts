import { oneLine } from "./excerpt.js";
import type { components, operations } from "./generated/schema.js";
import { serverDelay } from "./retry.js";

/** The documented shape of an error body; servers may send any subset, or no JSON at all. */
export type ErrorBody = components["schemas"]["ErrorBody"];

/** One problem a server listed in an error body (`detail`), as validation frameworks report it. */
export type ValidationErrorItem = components["schemas"]["ValidationErrorItem"];

/** The operations of the File Library, by their operationId in the spec. */
export type OperationId = keyof operations;

/** Where the client's two settings come from, for messages that say what to check. */
export const API_KEY_SETTING = "the apiKey option or FILE_LIBRARY_API_KEY";
export const BASE_URL_SETTING = "the baseUrl option or FILE_LIBRARY_BASE_URL";

/**
 * Base class of every error this client throws: catch it to catch them all. `Fields` types what a subclass's
 * constructor takes, so that subclasses need no constructor of their own.
 */
export class FileLibraryError<Fields extends object = object> extends Error {
  override name = "FileLibraryError";

  /** `fields` become the error's own properties (its operation, status...), shown by `toJSON`. */
  constructor(message: string, fields?: Fields, options?: { cause?: unknown }) {
    super(message, options);
    Object.assign(this, fields);
  }

  /** A plain object for logs and JSON: the name, the message and the error's own fields (never the API key). */
  toJSON(): Record<string, unknown> {
    const fields = Object.entries(this).map(([key, value]) => [key, value instanceof Headers ? Object.fromEntries(value) : value]);
    return { name: this.name, message: this.message, ...Object.fromEntries(fields) };
  }
}

/** A bad argument or option, found before any request was sent. */
export class InvalidArgumentError extends FileLibraryError {
  override name = "InvalidArgumentError";
}

/** The request never got an HTTP answer: the base URL is unreachable, the connection failed or was reset. */
export class ConnectionError extends FileLibraryError<{ operation: OperationId; attempts: number }> {
  override name = "ConnectionError";
  /** The operation that was being called. */
  declare readonly operation: OperationId;
  /** How many attempts were made, retries included. */
  declare readonly attempts: number;
}

/** Every attempt ran out of time (`timeoutMs`) without an answer. */
export class TimeoutError extends ConnectionError {
  override name = "TimeoutError";
}

/** The caller aborted the request through its `signal`. */
export class AbortError extends FileLibraryError {
  override name = "AbortError";
}

/** A 2xx answer whose body breaks the contract (metadata that is not an object, a download body that is not a URL). */
export class MalformedResponseError extends FileLibraryError<{ operation: OperationId; status: number; bodyExcerpt: string }> {
  override name = "MalformedResponseError";
  declare readonly operation: OperationId;
  declare readonly status: number;
  /** The start of the body, for the error report. */
  declare readonly bodyExcerpt: string;
}

/** Everything an error answer told us, already redacted. */
export interface ApiErrorDetails {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the raw text when it was not JSON, or undefined when empty. */
  body: unknown;
  operation: OperationId;
  method: string;
  /** The request path, with the file id percent-encoded. */
  path: string;
  /** How many attempts were made, retries included. */
  attempts: number;
  /** The limit the body was cut at (maxResponseBytes), when it was longer. */
  cut?: number | undefined;
}

// The name of the error of each status the client names, and what to do about it: one table for names and hints.
const STATUSES: Record<number, [name: string, hint?: string]> = {
  400: ["BadRequestError"],
  401: ["AuthenticationError", `Check the API key (${API_KEY_SETTING}).`],
  403: ["PermissionDeniedError", "The API key is not allowed to do this."],
  404: ["NotFoundError", `Check the base URL (${BASE_URL_SETTING}): the server does not know this path.`],
  409: ["ConflictError"],
  422: ["UnprocessableEntityError", "The file id may not exist, or the request body may be invalid."],
  429: ["RateLimitError", "Too many requests: wait and try again."],
};
const SERVER_FAILED: [string, string] = ["InternalServerError", "The service failed; try again later."];
// A 3xx, or a browser's opaque redirect (status 0): the client follows no redirect (docs/decisions.md, Redirects).
const REDIRECTED: [string, string] = ["ApiError", `The client follows no redirect: check the base URL (${BASE_URL_SETTING}).`];
const statusOf = (status: number) => (status >= 500 ? SERVER_FAILED : status < 400 ? REDIRECTED : STATUSES[status]) ?? ["ApiError"];

/**
 * The server answered with a status outside 2xx. Its `name` is the class of its status (`UnprocessableEntityError`),
 * and `instanceof` that class holds: the status classes match by status, so an app bundles only those it imports.
 */
export class ApiError extends FileLibraryError {
  declare readonly status: number;
  declare readonly headers: Headers;
  declare readonly body: unknown;
  declare readonly operation: OperationId;
  /** The server's `x-request-id`, to quote when asking its operators. */
  declare readonly requestId: string | undefined;
  /** How many attempts were made, retries included. */
  declare readonly attempts: number;

  constructor(details: ApiErrorDetails) {
    const [name, hint] = statusOf(details.status);
    const { status, headers, body, operation, attempts } = details;
    super(formatApiErrorMessage(details, hint), { status, headers, body, operation, requestId: headers.get("x-request-id") ?? undefined, attempts });
    this.name = name;
  }

  /** The status factory: the error of an answer, an instance of the class of its status. */
  static generate(details: ApiErrorDetails): ApiError {
    return new ApiError(details);
  }
}

/** The class of the errors whose status `matches`: `instanceof` it tests the status, not how the error was made. */
function statusClass(matches: (status: number) => boolean) {
  return class extends ApiError {
    static override [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof ApiError && matches(value.status);
    }
  };
}

/** 400: the request could not be read (for example a body that is not JSON). */
export class BadRequestError extends /* @__PURE__ */ statusClass((s) => s === 400) {}
/** 401: the API key is missing or wrong. */
export class AuthenticationError extends /* @__PURE__ */ statusClass((s) => s === 401) {}
/** 403: the API key may not do this. */
export class PermissionDeniedError extends /* @__PURE__ */ statusClass((s) => s === 403) {}
/** 404: the path is unknown to the server (an unknown file id is 422, not 404). */
export class NotFoundError extends /* @__PURE__ */ statusClass((s) => s === 404) {}
/** 409: the request conflicts with the file's current state. */
export class ConflictError extends /* @__PURE__ */ statusClass((s) => s === 409) {}

/** 422: the file id does not exist, or the update body is invalid. */
export class UnprocessableEntityError extends /* @__PURE__ */ statusClass((s) => s === 422) {
  /** The problems the server listed (its `detail` list: where, and what is wrong); empty when it listed none. */
  get problems(): ValidationErrorItem[] {
    const detail = (this.body as ErrorBody | undefined)?.detail;
    return Array.isArray(detail) ? detail : [];
  }
}

/** 429: too many requests; `retryAfterMs` says how long the server asked to wait. */
export class RateLimitError extends /* @__PURE__ */ statusClass((s) => s === 429) {
  /** The wait the server asked for (`retry-after-ms`, or `Retry-After` in seconds or as a date), or undefined when it did not say. */
  get retryAfterMs(): number | undefined {
    return serverDelay(this.headers)?.ms;
  }
}

/** 5xx: the service failed. */
export class InternalServerError extends /* @__PURE__ */ statusClass((s) => s >= 500) {}

function formatApiErrorMessage(details: ApiErrorDetails, hint: string | undefined): string {
  const reason = describeErrorBody(details.body);
  const tries = details.attempts > 1 ? `, after ${details.attempts} attempts` : "";
  const requestId = details.headers.get("x-request-id");
  return joinSentences([
    `${details.operation} failed with HTTP ${details.status} (${details.method} ${details.path}${tries})${reason ? `: ${reason}` : ""}`,
    details.cut ? `Its body was over ${details.cut} bytes (maxResponseBytes) and was cut` : "",
    hint ?? "",
    requestId ? `Request id: ${requestId}` : "",
  ]);
}

/** Joins sentences with one full stop between them, none added after one that already ends in punctuation; empty ones are left out. */
export function joinSentences(parts: readonly string[]): string {
  return parts.filter(Boolean).reduce((text, part) => `${text}${/[.!?…]$/.test(text) ? "" : "."} ${part}`);
}

const MAX_REASON_LENGTH = 300;

/** One readable sentence from whichever error shape the server used: message, detail (text or a list) or code. */
export function describeErrorBody(body: unknown): string {
  return oneLine(describe(body), MAX_REASON_LENGTH);
}

function describe(body: unknown): string {
  if (body === undefined || body === null) return "";
  if (typeof body === "string") return body;
  if (typeof body !== "object" || Array.isArray(body)) return JSON.stringify(body);
  const record = body as Record<string, unknown>;
  // A nested `error` object is common ({"error": {"code", "message"}}): describe what it holds.
  if (record.error && typeof record.error === "object" && !Array.isArray(record.error)) return describe(record.error);
  const pieces: string[] = [];
  if (typeof record.message === "string") pieces.push(record.message);
  else if (typeof record.error === "string") pieces.push(record.error);
  if (typeof record.detail === "string") pieces.push(record.detail);
  else if (Array.isArray(record.detail)) pieces.push(record.detail.map(describeDetailItem).join("; "));
  if (pieces.length === 0 && (typeof record.code === "string" || typeof record.code === "number")) {
    pieces.push(String(record.code));
  }
  return pieces.length > 0 ? pieces.join(" - ") : JSON.stringify(body);
}

function describeDetailItem(item: unknown): string {
  if (item && typeof item === "object") {
    const { loc, msg } = item as { loc?: unknown; msg?: unknown };
    const where = Array.isArray(loc) ? loc.join(".") : "";
    if (typeof msg === "string") return where ? `${where}: ${msg}` : msg;
  }
  return JSON.stringify(item);
}
