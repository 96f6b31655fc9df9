import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/schema.d.ts";
import {
  AbortError,
  ApiError,
  ConnectionError,
  InvalidArgumentError,
  MalformedResponseError,
  type OperationId,
} from "./errors.ts";
import { assertFileId, showFileId } from "./file-id.ts";
import { resolveOptions, type ClientOptions, type RequestOptions } from "./options.ts";
import { redactHeaders, redactString, redactValue } from "./redact.ts";
import { excerpt, parseDownloadUrl, parseMetadata, type FileMetadata } from "./response-body.ts";

/** The body of an update: the fields to change. */
export type UpdateFileRequest = components["schemas"]["UpdateFileRequest"];

/** The fields an update may carry; a type test keeps this list equal to the spec's. */
export const UPDATABLE_FIELDS = ["publicUrl", "labels"] as const satisfies readonly (keyof UpdateFileRequest)[];

const FILE_PATH = "/studio/v1/library/files/{file_id}";
const DOWNLOAD_PATH = "/studio/v1/library/files/{file_id}/download";

/** A typed client of the File Library; made by `createFileLibraryClient`. */
export interface FileLibraryClient {
  files: {
    /** Reads a file's metadata (`getFile`). */
    get(fileId: string, options?: RequestOptions): Promise<FileMetadata>;
    /** Changes a file's `publicUrl` and/or `labels` (`updateFile`); omitted fields keep their value. */
    update(fileId: string, body: UpdateFileRequest, options?: RequestOptions): Promise<void>;
    /** Returns a signed, absolute http(s) URL to download the file's contents (`getFileDownloadUrl`). */
    downloadUrl(fileId: string, options?: RequestOptions): Promise<string>;
  };
  /** The underlying openapi-fetch client, authenticated, for anything the methods above do not cover. */
  raw: Client<paths>;
}

/** What openapi-fetch resolves to when every body is read as text. */
interface TextResult {
  data?: string | undefined;
  error?: unknown;
  response: Response;
}

/** Creates a client; options default to FILE_LIBRARY_BASE_URL and FILE_LIBRARY_API_KEY. */
export function createFileLibraryClient(options: ClientOptions = {}): FileLibraryClient {
  const { baseUrl, apiKey, fetch, headers } = resolveOptions(options);
  const secrets = [apiKey];
  const raw = createClient<paths>({
    baseUrl,
    fetch,
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
  });

  /** Sends one request and turns every failure into one of our errors; returns the 2xx body as text. */
  async function send(
    operation: OperationId,
    method: string,
    template: string,
    fileId: string,
    signal: AbortSignal | undefined,
    perform: () => Promise<TextResult>,
  ): Promise<{ text: string; response: Response }> {
    const path = template.replace("{file_id}", encodeURIComponent(fileId));
    if (signal?.aborted) throw new AbortError(`${operation} was aborted before it was sent.`);
    let result: TextResult;
    try {
      result = await perform();
    } catch (cause) {
      if (signal?.aborted) throw new AbortError(`${operation} was aborted by the caller (${method} ${path}).`);
      throw new ConnectionError(
        redactString(
          `${operation} could not reach the File Library at ${baseUrl} (${method} ${path}): ${describeCause(cause)}. ` +
            "Check the base URL (the baseUrl option or FILE_LIBRARY_BASE_URL) and that the service is running.",
          secrets,
        ),
        operation,
        { cause },
      );
    }
    const { response } = result;
    if (!response.ok) {
      throw ApiError.generate({
        status: response.status,
        headers: redactHeaders(response.headers, secrets),
        body: redactValue(result.error, secrets),
        operation,
        method,
        path,
      });
    }
    return { text: result.data ?? "", response };
  }

  function malformed(operation: OperationId, response: Response, text: string, problem: string): MalformedResponseError {
    const shown = redactString(excerpt(text), secrets);
    return new MalformedResponseError(
      `${operation} got HTTP ${response.status} but ${problem} (content type ${response.headers.get("content-type") ?? "none"}; body: ${shown}). The server does not keep the File Library contract.`,
      operation,
      response.status,
      shown,
    );
  }

  return {
    raw,
    files: {
      async get(fileId, requestOptions = {}) {
        const id = assertFileId(fileId);
        const { text, response } = await send("getFile", "GET", FILE_PATH, id, requestOptions.signal, () =>
          raw.GET(FILE_PATH, textRequest(id, requestOptions)),
        );
        const metadata = parseMetadata(text);
        if (!metadata.ok) throw malformed("getFile", response, text, metadata.problem);
        return metadata.value;
      },

      async update(fileId, body, requestOptions = {}) {
        const id = assertFileId(fileId);
        const checked = assertUpdateBody(body, id);
        // The success body is empty by contract; some servers send `null` or `{}`. Nothing in it is used.
        await send("updateFile", "PUT", FILE_PATH, id, requestOptions.signal, () =>
          raw.PUT(FILE_PATH, { ...textRequest(id, requestOptions), body: checked }),
        );
      },

      async downloadUrl(fileId, requestOptions = {}) {
        const id = assertFileId(fileId);
        const { text, response } = await send("getFileDownloadUrl", "GET", DOWNLOAD_PATH, id, requestOptions.signal, () =>
          raw.GET(DOWNLOAD_PATH, textRequest(id, requestOptions, DOWNLOAD_ACCEPT)),
        );
        const url = parseDownloadUrl(text, response.headers.get("content-type"));
        if (!url.ok) throw malformed("getFileDownloadUrl", response, text, url.problem);
        return url.value;
      },
    },
  };
}

// The spec's first choice is text; a JSON string is the tolerated alternative.
const DOWNLOAD_ACCEPT = { Accept: "text/plain, application/json;q=0.9" };

/** openapi-fetch options shared by the three calls: the id, the caller's signal and headers, bodies read as text. */
function textRequest(fileId: string, options: RequestOptions, headers: Record<string, string> = {}) {
  return {
    params: { path: { file_id: fileId } },
    // Read as text, always: openapi-fetch's JSON parsing would throw a bare SyntaxError on a malformed body.
    parseAs: "text" as const,
    signal: options.signal ?? null,
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

/** The most specific reason a fetch failed: undici puts the socket error in `cause`. */
function describeCause(error: unknown): string {
  const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (inner instanceof Error) return inner.message || inner.name;
  return String(inner);
}
