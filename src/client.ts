import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/schema.js";
import { InvalidArgumentError, MalformedResponseError, type OperationId } from "./errors.js";
import { assertFileId, showFileId } from "./file-id.js";
import { checkMaxRetries, checkTimeout, resolveOptions, type ClientOptions, type RequestOptions } from "./options.js";
import { redactString } from "./redact.js";
import { bodyExcerpt, DOWNLOAD_ACCEPT, parseDownloadUrl, parseMetadata, type FileMetadata } from "./response-body.js";
import { sendWithRetries, type TextResult } from "./send.js";
import { LightRequest, lightFetch } from "./light-request.js";

/** The body of an update: the fields to change. */
export type UpdateFileRequest = components["schemas"]["UpdateFileRequest"];

/** The fields an update may carry; a type test keeps this list equal to the spec's. */
export const UPDATABLE_FIELDS = ["publicUrl", "labels"] as const satisfies readonly (keyof UpdateFileRequest)[];

const FILE_PATH = "/studio/v1/library/files/{file_id}";
const DOWNLOAD_PATH = "/studio/v1/library/files/{file_id}/download";

/** A method's result together with the HTTP answer it came from. */
export interface WithResponse<T> {
  data: T;
  response: Response;
  /** The server's `x-request-id`, if it sent one. */
  requestId: string | undefined;
  /** How many attempts the call took, retries included. */
  attempts: number;
}

/** The three operations, each resolving to its data. */
export interface FileOperations {
  /** Reads a file's metadata (`getFile`). */
  get(fileId: string, options?: RequestOptions): Promise<FileMetadata>;
  /** Changes a file's `publicUrl` and/or `labels` (`updateFile`); omitted fields keep their value. */
  update(fileId: string, body: UpdateFileRequest, options?: RequestOptions): Promise<void>;
  /** Returns a signed, absolute http(s) URL to download the file's contents (`getFileDownloadUrl`). */
  downloadUrl(fileId: string, options?: RequestOptions): Promise<string>;
}

/** The same operations, each resolving to its data and the raw `Response`. */
export interface FileOperationsWithResponse {
  get(fileId: string, options?: RequestOptions): Promise<WithResponse<FileMetadata>>;
  update(fileId: string, body: UpdateFileRequest, options?: RequestOptions): Promise<WithResponse<void>>;
  downloadUrl(fileId: string, options?: RequestOptions): Promise<WithResponse<string>>;
}

/** A typed client of the File Library; made by `createFileLibraryClient`. */
export interface FileLibraryClient {
  files: FileOperations;
  /** The operations with the raw `Response`, for headers and status. */
  withResponse: { files: FileOperationsWithResponse };
  /** The underlying openapi-fetch client, authenticated, for anything the methods do not cover; its middleware applies to the methods too. */
  raw: Client<paths>;
}

/** Creates a client; options default to FILE_LIBRARY_BASE_URL, FILE_LIBRARY_API_KEY and FILE_LIBRARY_LOG. */
export function createFileLibraryClient(options: ClientOptions = {}): FileLibraryClient {
  const resolved = resolveOptions(options);
  const { baseUrl, apiKey, log } = resolved;
  const secrets = [apiKey];
  const raw = createClient<paths>({
    baseUrl,
    fetch: resolved.fetch,
    headers: { ...resolved.headers, Authorization: `Bearer ${apiKey}` },
  });
  // Middleware and an injected fetch get real Request objects; otherwise calls take the light path (see LightRequest).
  let middlewareCount = 0;
  const { use, eject } = raw;
  raw.use = (...middleware) => {
    use(...middleware);
    middlewareCount += middleware.filter(Boolean).length;
  };
  raw.eject = (...middleware) => {
    eject(...middleware);
    middlewareCount = Math.max(0, middlewareCount - middleware.filter(Boolean).length);
  };
  const light = { Request: LightRequest as unknown as typeof Request, fetch: lightFetch() };
  const canGoLight = options.fetch === undefined;
  const transport = () => (canGoLight && middlewareCount === 0 ? light : {});

  /** Runs one operation with the client's policy, overridden per call. */
  function send(
    operation: OperationId,
    method: string,
    template: string,
    fileId: string,
    callOptions: RequestOptions,
    perform: (signal: AbortSignal) => Promise<TextResult>,
  ) {
    return sendWithRetries(
      {
        operation,
        method,
        path: template.replace("{file_id}", encodeURIComponent(fileId)),
        baseUrl,
        secrets,
        log,
        maxRetries: callOptions.maxRetries === undefined ? resolved.maxRetries : checkMaxRetries(callOptions.maxRetries),
        timeoutMs: callOptions.timeoutMs === undefined ? resolved.timeoutMs : checkTimeout(callOptions.timeoutMs),
        signal: callOptions.signal,
      },
      perform,
    );
  }

  function malformed(operation: OperationId, response: Response, text: string, problem: string): MalformedResponseError {
    const shown = redactString(bodyExcerpt(text), secrets);
    return new MalformedResponseError(
      `${operation} got HTTP ${response.status} but ${problem} (content type ${response.headers.get("content-type") ?? "none"}; body: ${shown}). The server does not keep the File Library contract.`,
      operation,
      response.status,
      shown,
    );
  }

  const withResponse: FileOperationsWithResponse = {
    async get(fileId, callOptions = {}) {
      const id = assertFileId(fileId);
      const answer = await send("getFile", "GET", FILE_PATH, id, callOptions, (signal) =>
        raw.GET(FILE_PATH, { ...textRequest(id, callOptions, signal), ...transport() }),
      );
      const metadata = parseMetadata(answer.text);
      if (!metadata.ok) throw malformed("getFile", answer.response, answer.text, metadata.problem);
      return wrap(metadata.value, answer);
    },

    async update(fileId, body, callOptions = {}) {
      const id = assertFileId(fileId);
      const checked = assertUpdateBody(body, id);
      // The success body is empty by contract; some servers send `null` or `{}`. Nothing in it is used.
      const answer = await send("updateFile", "PUT", FILE_PATH, id, callOptions, (signal) =>
        raw.PUT(FILE_PATH, { ...textRequest(id, callOptions, signal), ...transport(), body: checked }),
      );
      return wrap(undefined, answer);
    },

    async downloadUrl(fileId, callOptions = {}) {
      const id = assertFileId(fileId);
      const answer = await send("getFileDownloadUrl", "GET", DOWNLOAD_PATH, id, callOptions, (signal) =>
        raw.GET(DOWNLOAD_PATH, { ...textRequest(id, callOptions, signal, { Accept: DOWNLOAD_ACCEPT }), ...transport() }),
      );
      const url = parseDownloadUrl(answer.text, answer.response.headers.get("content-type"));
      if (!url.ok) throw malformed("getFileDownloadUrl", answer.response, answer.text, url.problem);
      return wrap(url.value, answer);
    },
  };

  return {
    raw,
    withResponse: { files: withResponse },
    files: {
      get: (fileId, callOptions) => withResponse.get(fileId, callOptions).then((r) => r.data),
      update: (fileId, body, callOptions) => withResponse.update(fileId, body, callOptions).then(() => undefined),
      downloadUrl: (fileId, callOptions) => withResponse.downloadUrl(fileId, callOptions).then((r) => r.data),
    },
  };
}

function wrap<T>(data: T, answer: { response: Response; attempts: number }): WithResponse<T> {
  return { data, response: answer.response, requestId: answer.response.headers.get("x-request-id") ?? undefined, attempts: answer.attempts };
}

/** openapi-fetch options shared by the three calls: the id, the attempt's signal, headers, bodies read as text. */
function textRequest(fileId: string, options: RequestOptions, signal: AbortSignal, headers: Record<string, string> = {}) {
  return {
    params: { path: { file_id: fileId } },
    // Read as text, always: openapi-fetch's JSON parsing would throw a bare SyntaxError on a malformed body.
    parseAs: "text" as const,
    signal,
    headers: { ...headers, ...options.headers },
  };
}

/** Checks the shape an update needs, so that a typo is an error here rather than a silent no-op on a lenient server. */
function assertUpdateBody(body: unknown, fileId: string): UpdateFileRequest {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new InvalidArgumentError(
      `The update of file ${showFileId(fileId)} needs an object such as { labels: ["a"] } or { publicUrl: "https://..." }.`,
    );
  }
  const unknown = Object.keys(body).filter((key) => !(UPDATABLE_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `The update of file ${showFileId(fileId)} has unknown field(s) ${unknown.map((k) => JSON.stringify(k)).join(", ")}: only ${UPDATABLE_FIELDS.join(" and ")} can be changed.`,
    );
  }
  return body as UpdateFileRequest;
}
