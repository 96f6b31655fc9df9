import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/schema.js";
import { InvalidArgumentError, MalformedResponseError, type OperationId } from "./errors.js";
import { assertFileId, showFileId } from "./file-id.js";
import { checkNumber, resolveOptions, type ClientOptions, type NumericOption, type RequestOptions } from "./options.js";
import { redactString } from "./redact.js";
import { bodyExcerpt, decodeBody, DOWNLOAD_ACCEPT, parseDownloadUrl, parseMetadata, type FileMetadata, type Parsed } from "./response-body.js";
import { cutAt, limitedFetch } from "./response-limit.js";
import { sendWithRetries, type RawResult } from "./send.js";
import { LightRequest } from "./light-request.js";

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
  const light = { Request: LightRequest as unknown as typeof Request };
  const canGoLight = options.fetch === undefined;
  const transport = () => (canGoLight && middlewareCount === 0 ? light : {});

  /**
   * Runs one operation with the client's policy (overridden per call): checks the id, sends the request through
   * openapi-fetch with the body read as text, and reads a 2xx body with `read`, or says how it breaks the contract.
   */
  async function call<T>(
    operation: OperationId,
    method: "GET" | "PUT",
    template: typeof FILE_PATH | typeof DOWNLOAD_PATH,
    fileId: string,
    callOptions: RequestOptions,
    request: { body?: UpdateFileRequest; headers?: Record<string, string> },
    read: (text: string, response: Response) => Parsed<T>,
  ): Promise<WithResponse<T>> {
    const option = (name: NumericOption) => (callOptions[name] === undefined ? resolved[name] : checkNumber(name, callOptions[name]));
    const maxBytes = option("maxResponseBytes");
    const { response, body, attempts } = await sendWithRetries(
      {
        operation,
        method,
        path: template.replace("{file_id}", encodeURIComponent(fileId)),
        baseUrl,
        secrets,
        log,
        maxRetries: option("maxRetries"),
        timeoutMs: option("timeoutMs"),
        signal: callOptions.signal,
      },
      (signal) =>
        (raw[method] as (path: string, init: object) => Promise<RawResult>)(template, {
          params: { path: { file_id: fileId } },
          // Read as bytes: openapi-fetch's JSON parsing would throw a bare SyntaxError on a malformed body, and its
          // text decoding replaces invalid UTF-8 without a word.
          parseAs: "arrayBuffer",
          // The spec documents no redirect: following one would send the update's body, or the answer of another
          // origin, as the service's (docs/decisions.md, Redirects).
          redirect: "manual",
          // Every answer's body ends at maxBytes, whatever the server sends (response-limit.ts).
          fetch: limitedFetch(resolved.fetch, maxBytes),
          signal,
          headers: { ...request.headers, ...callOptions.headers },
          ...(request.body && { body: request.body }),
          ...transport(),
        }),
    );
    const cut = cutAt(response);
    const decoded = decodeBody(body);
    const text = decoded.ok ? decoded.value : new TextDecoder().decode(body);
    const parsed: Parsed<T> = cut ? { ok: false, problem: `the body is over ${cut} bytes (maxResponseBytes)` } : decoded.ok ? read(text, response) : decoded;
    if (!parsed.ok) {
      const shown = redactString(bodyExcerpt(text), secrets);
      throw new MalformedResponseError(
        `${operation} got HTTP ${response.status} but ${parsed.problem} (content type ${response.headers.get("content-type") ?? "none"}; body: ${shown}). The server does not keep the File Library contract.`,
        { operation, status: response.status, bodyExcerpt: shown },
      );
    }
    return { data: parsed.value, response, requestId: response.headers.get("x-request-id") ?? undefined, attempts };
  }

  const withResponse: FileOperationsWithResponse = {
    get: async (fileId, callOptions = {}) => call("getFile", "GET", FILE_PATH, assertFileId(fileId), callOptions, {}, parseMetadata),
    async update(fileId, body, callOptions = {}) {
      const id = assertFileId(fileId);
      // The success body is empty by contract; some servers send `null` or `{}`. Nothing in it is used.
      return call("updateFile", "PUT", FILE_PATH, id, callOptions, { body: assertUpdateBody(body, id) }, () => ({ ok: true, value: undefined }));
    },
    downloadUrl: async (fileId, callOptions = {}) =>
      call("getFileDownloadUrl", "GET", DOWNLOAD_PATH, assertFileId(fileId), callOptions, { headers: { Accept: DOWNLOAD_ACCEPT } }, (text, response) =>
        parseDownloadUrl(text, response.headers.get("content-type")),
      ),
  };

  const dataOf = <T>(result: Promise<WithResponse<T>>) => result.then((r) => r.data);
  return {
    raw,
    withResponse: { files: withResponse },
    files: {
      get: (fileId, callOptions) => dataOf(withResponse.get(fileId, callOptions)),
      update: (fileId, body, callOptions) => dataOf(withResponse.update(fileId, body, callOptions)),
      downloadUrl: (fileId, callOptions) => dataOf(withResponse.downloadUrl(fileId, callOptions)),
    },
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
