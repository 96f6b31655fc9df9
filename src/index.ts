/** The public API of the File Library client. */
export { createFileLibraryClient, UPDATABLE_FIELDS } from "./client.ts";
export type { FileLibraryClient, UpdateFileRequest } from "./client.ts";
export type { ClientOptions, RequestOptions, Fetch } from "./options.ts";
export type { FileMetadata } from "./response-body.ts";
export {
  FileLibraryError,
  InvalidArgumentError,
  ConnectionError,
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
