/** The public API of the File Library client. */
export { createFileLibraryClient, UPDATABLE_FIELDS } from "./client.ts";
export type { FileLibraryClient, FileOperations, FileOperationsWithResponse, UpdateFileRequest, WithResponse } from "./client.ts";
export type { ClientOptions, RequestOptions, Fetch } from "./options.ts";
export { DEFAULT_TIMEOUT_MS } from "./options.ts";
export { DEFAULT_MAX_RETRIES } from "./retry.ts";
export type { Logger, LogLevel } from "./logger.ts";
export type { FileMetadata } from "./response-body.ts";
export {
  FileLibraryError,
  InvalidArgumentError,
  ConnectionError,
  TimeoutError,
  AbortError,
  MalformedResponseError,
  ApiError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
} from "./errors.ts";
export type { ApiErrorDetails, ErrorBody, OperationId } from "./errors.ts";
export type { components, paths, operations } from "./generated/schema.d.ts";
