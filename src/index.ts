/** The public API of the File Library client. */
export { createFileLibraryClient, UPDATABLE_FIELDS } from "./client.js";
export type {
  FileLibraryClient,
  FileOperations,
  FileOperationsWithResponse,
  UpdateFileRequest,
  WithResponse,
} from "./client.js";
export type { ClientOptions, RequestOptions } from "./options.js";
export type { Fetch } from "./fetch.js";
export { DEFAULT_TIMEOUT_MS } from "./options.js";
export { DEFAULT_MAX_RESPONSE_BYTES } from "./response-limit.js";
export { DEFAULT_MAX_RETRIES } from "./retry.js";
export type { Logger, LogLevel } from "./logger.js";
export type { FileMetadata } from "./response-body.js";
export {
  FileLibraryError,
  InvalidArgumentError,
  ConnectionError,
  TimeoutError,
  AbortError,
  MalformedResponseError,
  MetadataShapeError,
  ApiError,
  BadRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
} from "./errors.js";
export type { ApiErrorDetails, ErrorBody, OperationId } from "./errors.js";
export type { components, paths, operations } from "./generated/schema.js";
