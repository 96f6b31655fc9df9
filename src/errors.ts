import { oneLine } from "./excerpt.js";
import { isObject } from "./is-object.js";
import type { components, OperationId } from "./generated/schema.js";
import { serverDelay } from "./retry.js";

/** The documented shape of an error body; servers may send any subset, or no JSON at all. */
export type ErrorBody = components["schemas"]["ErrorBody"];

/** One problem a server listed in an error body (`detail`), as validation frameworks report it. */
export type ValidationErrorItem = components["schemas"]["ValidationErrorItem"];

export type { OperationId };

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

  /** A plain object for logs and JSON: the message, then the name and the error's own fields (never the API key). */
  toJSON(): Record<string, unknown> {
    const { headers } = this as { headers?: Headers };
    return {
      message: this.message,
      // The error's own enumerable properties: its name (a class field), and its fields (a message is not enumerable).
      ...(this as object),
      ...(headers && { headers: Object.fromEntries(headers) }),
    };
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

/** What a MalformedResponseError holds. */
type Malformed = { operation: OperationId; status: number; bodyExcerpt: string };

/** A 2xx answer whose body breaks the contract (metadata that is not an object, a download body that is not a URL). */
export class MalformedResponseError<Fields extends Malformed = Malformed> extends FileLibraryError<Fields> {
  override name = "MalformedResponseError";
  declare readonly operation: OperationId;
  declare readonly status: number;
  /** The start of the body, for the error report; empty in a MetadataShapeError, which shows no value. */
  declare readonly bodyExcerpt: string;
}

/**
 * A 2xx metadata answer without members the spec requires of FileMetadata, such as one in the shape of the service's own
 * OpenAPI document (`fileId`, `sizeBytes`, `creationDate`): the message names the members missing and the members the
 * answer has instead, never a value.
 */
export class MetadataShapeError extends MalformedResponseError<Malformed & { missing: string[] }> {
  override name = "MetadataShapeError";
  /** The required members the answer lacks (`id`, `size`, `created_at`). */
  declare readonly missing: string[];
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

/**
 * The server answered with a status outside 2xx. `ApiError.generate` makes the class of its status
 * (`UnprocessableEntityError` for 422), whose `name` is the class's name.
 */
export class ApiError extends FileLibraryError {
  override name = "ApiError";
  declare readonly status: number;
  declare readonly headers: Headers;
  declare readonly body: unknown;
  declare readonly operation: OperationId;
  /** The server's `x-request-id`, to quote when asking its operators. */
  declare readonly requestId: string | undefined;
  /** How many attempts were made, retries included. */
  declare readonly attempts: number;

  constructor(details: ApiErrorDetails) {
    // The method, the path and the cut are in the message only.
    const { method, path, cut, ...fields } = details;
    super(formatApiErrorMessage(details, kindOf(fields.status)[1]), {
      ...fields,
      requestId: fields.headers.get("x-request-id") ?? undefined,
    });
  }

  /** The status factory: the error of an answer, an instance of the class of its status (`ApiError` for one no class names). */
  static generate(details: ApiErrorDetails): ApiError {
    return new (kindOf(details.status)[0])(details);
  }
}

/** 400: the request could not be read (for example a body that is not JSON). */
export class BadRequestError extends ApiError {
  override name = "BadRequestError";
}
/** 401: the API key is missing or wrong. */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}
/** 403: the API key may not do this. */
export class PermissionDeniedError extends ApiError {
  override name = "PermissionDeniedError";
}
/** 404: the path is unknown to the server (an unknown file id is 422, not 404). */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}
/** 409: the request conflicts with the file's current state. */
export class ConflictError extends ApiError {
  override name = "ConflictError";
}

/** 422: the file id does not exist, or the update body is invalid. */
export class UnprocessableEntityError extends ApiError {
  override name = "UnprocessableEntityError";
  /** The problems the server listed (its `detail` list: where, and what is wrong); empty when it listed none. */
  readonly problems: ValidationErrorItem[] = problemsOf(this.body);
}

/** 429: too many requests; `retryAfterMs` says how long the server asked to wait. */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
  /** The wait the server asked for (`retry-after-ms`, or `Retry-After` in seconds or as a date), or undefined when it did not say. */
  readonly retryAfterMs: number | undefined = serverDelay(this.headers)?.ms;
}

/** 5xx: the service failed. */
export class InternalServerError extends ApiError {
  override name = "InternalServerError";
}

// The class of each status the client names, and what to do about it, in one table. A status whose class says it all
// (429: the client already waited as asked; 5xx: the service failed) has no hint.
const STATUSES: Record<number, [typeof ApiError, string?]> = {
  400: [BadRequestError],
  401: [AuthenticationError, `Check the API key (${API_KEY_SETTING}).`],
  403: [PermissionDeniedError, "The API key is not allowed to do this."],
  404: [NotFoundError, `Check the base URL (${BASE_URL_SETTING}): the server does not know this path.`],
  409: [ConflictError],
  422: [UnprocessableEntityError, "The file id may not exist, or the request body may be invalid."],
  429: [RateLimitError],
};

/** The class and the hint of a status. A 3xx, or a browser's opaque redirect (status 0): the client follows no redirect (docs/decisions.md, D46). */
const kindOf = (status: number): [typeof ApiError, string?] =>
  status >= 500
    ? [InternalServerError]
    : status < 400
      ? [ApiError, `The client follows no redirect: check the base URL (${BASE_URL_SETTING}).`]
      : (STATUSES[status] ?? [ApiError]);

function problemsOf(body: unknown): ValidationErrorItem[] {
  const detail = (body as ErrorBody | undefined)?.detail;
  // A hostile list may hold anything: only objects can be problems as ValidationErrorItem types them.
  return Array.isArray(detail) ? detail.filter(isObject) : [];
}

function formatApiErrorMessage(details: ApiErrorDetails, hint: string | undefined): string {
  const reason = describeErrorBody(details.body);
  const tries = details.attempts > 1 ? `, after ${details.attempts} attempts` : "";
  const requestId = details.headers.get("x-request-id");
  return joinSentences([
    `${details.operation} failed with HTTP ${details.status} (${details.method} ${details.path}${tries})${reason ? `: ${reason}` : ""}`,
    details.cut ? `Its body was cut at ${details.cut} bytes (maxResponseBytes)` : "",
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
  // A number, a boolean or a list has none of these fields: it is shown as JSON, below.
  const { error, message, detail, code } = body as Record<string, unknown>;
  // A nested `error` object is common ({"error": {"code", "message"}}): describe what it holds.
  if (isObject(error)) return describe(error);
  const pieces = [
    typeof message === "string" ? message : typeof error === "string" ? error : "",
    typeof detail === "string" ? detail : Array.isArray(detail) ? detail.map(describeDetailItem).join("; ") : "",
  ].filter(Boolean);
  // The code only when nothing says more.
  return (
    pieces.join(" - ") || (typeof code === "string" || typeof code === "number" ? String(code) : JSON.stringify(body))
  );
}

function describeDetailItem(item: unknown): string {
  // Object(): a null or a number in the list has no fields to read, rather than failing the read.
  const { loc, msg } = Object(item) as { loc?: unknown; msg?: unknown };
  const where = Array.isArray(loc) ? loc.join(".") : "";
  if (typeof msg === "string") return where ? `${where}: ${msg}` : msg;
  return JSON.stringify(item);
}
