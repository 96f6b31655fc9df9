import { oneLine } from "./excerpt.js";
import type { components, operations } from "./generated/schema.js";

/** The documented shape of an error body; servers may send any subset, or no JSON at all. */
export type ErrorBody = components["schemas"]["ErrorBody"];

/** The operations of the File Library, by their operationId in the spec. */
export type OperationId = keyof operations;

/** Base class of every error this client throws: catch it to catch them all. */
export class FileLibraryError extends Error {
  override name = "FileLibraryError";

  /** A plain object for logs and JSON; never holds the API key. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message };
  }
}

/** A bad argument or option, found before any request was sent. */
export class InvalidArgumentError extends FileLibraryError {
  override name = "InvalidArgumentError";
}

/** The request never got an HTTP answer: the base URL is unreachable, the connection failed or was reset. */
export class ConnectionError extends FileLibraryError {
  override name = "ConnectionError";
  constructor(
    message: string,
    /** The operation that was being called. */
    readonly operation: OperationId,
    /** How many attempts were made, retries included. */
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), operation: this.operation, attempts: this.attempts };
  }
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
export class MalformedResponseError extends FileLibraryError {
  override name = "MalformedResponseError";
  constructor(
    message: string,
    readonly operation: OperationId,
    readonly status: number,
    /** The start of the body, for the error report. */
    readonly bodyExcerpt: string,
  ) {
    super(message);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), operation: this.operation, status: this.status, bodyExcerpt: this.bodyExcerpt };
  }
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
}

/** The server answered with a status outside 2xx. Subclasses name the common statuses. */
export class ApiError extends FileLibraryError {
  override name = "ApiError";
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  readonly operation: OperationId;
  /** The server's `x-request-id`, to quote when asking its operators. */
  readonly requestId: string | undefined;
  /** How many attempts were made, retries included. */
  readonly attempts: number;

  constructor(details: ApiErrorDetails) {
    super(formatApiErrorMessage(details, hintFor(details.status)));
    this.status = details.status;
    this.headers = details.headers;
    this.body = details.body;
    this.operation = details.operation;
    this.requestId = details.headers.get("x-request-id") ?? undefined;
    this.attempts = details.attempts;
  }

  /** Builds the subclass that matches the status (the status factory). */
  static generate(details: ApiErrorDetails): ApiError {
    const { status } = details;
    if (status === 400) return new BadRequestError(details);
    if (status === 401) return new AuthenticationError(details);
    if (status === 403) return new PermissionDeniedError(details);
    if (status === 404) return new NotFoundError(details);
    if (status === 409) return new ConflictError(details);
    if (status === 422) return new UnprocessableEntityError(details);
    if (status === 429) return new RateLimitError(details);
    if (status >= 500) return new InternalServerError(details);
    return new ApiError(details);
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      status: this.status,
      operation: this.operation,
      requestId: this.requestId,
      attempts: this.attempts,
      headers: Object.fromEntries(this.headers),
      body: this.body,
    };
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
}
/** 429: too many requests; see the `retry-after` header. */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
}
/** 5xx: the service failed. */
export class InternalServerError extends ApiError {
  override name = "InternalServerError";
}

function hintFor(status: number): string {
  if (status === 401) return "Check the API key (the apiKey option or FILE_LIBRARY_API_KEY).";
  if (status === 403) return "The API key is not allowed to do this.";
  if (status === 404) return "Check the base URL (the baseUrl option or FILE_LIBRARY_BASE_URL): the server does not know this path.";
  if (status === 422) return "The file id may not exist, or the request body may be invalid.";
  if (status === 429) return "Too many requests: wait and try again.";
  if (status >= 500) return "The service failed; try again later.";
  return "";
}

function formatApiErrorMessage(details: ApiErrorDetails, hint: string): string {
  const reason = describeErrorBody(details.body);
  const tries = details.attempts > 1 ? `, after ${details.attempts} attempts` : "";
  const parts = [`${details.operation} failed with HTTP ${details.status} (${details.method} ${details.path}${tries})`];
  if (reason) parts[0] += `: ${reason}`;
  if (hint) parts.push(hint);
  const requestId = details.headers.get("x-request-id");
  if (requestId) parts.push(`Request id: ${requestId}`);
  return joinSentences(parts);
}

/** Joins sentences with one full stop between them, none added after one that already ends in punctuation. */
export function joinSentences(parts: readonly string[]): string {
  return parts.reduce((text, part) => (text === "" ? part : `${text}${/[.!?…]$/.test(text) ? "" : "."} ${part}`), "");
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
