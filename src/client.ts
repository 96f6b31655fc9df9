import createClient, { mergeHeaders, type Client } from "openapi-fetch";
import type { components, paths } from "./generated/schema.js";
import { InvalidArgumentError, MalformedResponseError, MetadataShapeError, type OperationId } from "./errors.js";
import { assertFileId, showFileId } from "./file-id.js";
import {
  checkNumber,
  resolveOptions,
  type ClientOptions,
  type NumericOption,
  type RequestOptions,
  type ResolvedOptions,
} from "./options.js";
import { redactString } from "./redact.js";
import {
  bodyExcerpt,
  decodeBody,
  DOWNLOAD_ACCEPT,
  fail,
  parseDownloadUrl,
  parseMetadata,
  type FileMetadata,
  type Parsed,
} from "./response-body.js";
import { readLimited } from "./response-limit.js";
import { errorBodyOf, sendWithRetries, type RawResult } from "./send.js";
import { fetchOnce, globalFetch } from "./fetch.js";
import { decodeLossy } from "./invalid-utf8.js";
import { isObject } from "./is-object.js";

/** The body of an update: the fields to change. */
export type UpdateFileRequest = components["schemas"]["UpdateFileRequest"];

/** The fields an update may carry; a type test keeps this list equal to the spec's. */
export const UPDATABLE_FIELDS = ["publicUrl", "labels"] as const satisfies readonly (keyof UpdateFileRequest)[];

const FILE_PATH = "/studio/v1/library/files/{file_id}";
const DOWNLOAD_PATH = "/studio/v1/library/files/{file_id}/download";

/** What one attempt sends. */
type AttemptInit = { method: string; headers: Headers; body: string | null; redirect: "manual"; signal: AbortSignal };

/** One of the three operations, as the client sends it and reads its 2xx answer. */
interface Operation<T> {
  id: OperationId;
  method: "GET" | "PUT";
  path: typeof FILE_PATH | typeof DOWNLOAD_PATH;
  headers: Headers;
  read: (text: string, contentType: string | null) => Parsed<T>;
}

/** Headers merged by openapi-fetch's own rule (a later name wins, whatever its case); a bad one is the caller's error. */
function merge(...sets: Array<Headers | Record<string, string> | undefined>): Headers {
  try {
    return mergeHeaders(...sets);
  } catch {
    throw new InvalidArgumentError("A header name or value is not valid in HTTP.");
  }
}

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
  const { baseUrl, apiKey, log, fetch } = resolved;
  // As sent in a header, and as a path would carry it: a key passed as a file id by mistake is shown in neither form.
  const secrets = [apiKey, encodeURIComponent(apiKey)];
  const headers = { ...resolved.headers, Authorization: `Bearer ${apiKey}` };
  const raw = createClient<paths>({ baseUrl, fetch, headers });
  // Once middleware is added to raw, the methods go through openapi-fetch, so that it runs for them too; before, they
  // send their request themselves, which saves openapi-fetch's per-call work (a third of what a call costs over raw
  // fetch). Both paths send the same request (test/client/client-methods.test.ts compares them on the wire), so an
  // eject need not bring the direct path back: the flag chooses what a call costs, not what it does.
  // Stryker disable all: equivalent, as said above.
  let throughRaw = false;
  const { use } = raw;
  raw.use = (...middleware) => {
    use(...middleware);
    throughRaw = true;
  };
  // Stryker restore all

  /**
   * One answer through openapi-fetch and its middleware, its body unread: openapi-fetch reads an error body itself (the
   * fetch it calls cuts it one byte past the limit first, so that a cut still shows), and it is given back as a body.
   */
  async function throughMiddleware(
    path: string,
    body: unknown,
    init: AttemptInit,
    maxBytes: number,
  ): Promise<Response> {
    const { response, error } = await (
      raw.request as (method: string, path: string, init: object) => Promise<{ response: Response; error?: unknown }>
    )(init.method, path, {
      ...init,
      body,
      parseAs: "stream",
      fetch: async (input: Request, requestInit?: RequestInit) => {
        const answer = await fetch(input, requestInit);
        // A body-less answer (204, or a browser's opaque redirect, status 0) is passed on: no Response can be made of it.
        return answer.body ? new Response((await readLimited(answer.body, maxBytes + 1)).bytes, answer) : answer;
      },
    });
    // An error body openapi-fetch read (as text, then JSON where it parses) is given back as a body; any other answer,
    // a 2xx stream or one without a body (a browser's opaque redirect, status 0, can make no Response), as it is.
    return response.bodyUsed
      ? new Response(typeof error === "string" ? error : JSON.stringify(error), response)
      : response;
  }

  /**
   * Runs one operation with the client's policy (overridden per call): sends the request, reads a 2xx body with the
   * operation's reader or says how it breaks the contract, and turns every failure into one of our errors.
   */
  async function call<T>(
    operation: Operation<T>,
    id: string,
    callOptions: RequestOptions = {},
    update?: unknown,
  ): Promise<Result<T>> {
    const fileId = assertFileId(id);
    // Only the update has a body, and it must have one: `update(id, undefined)` is a mistake, not an empty update.
    const body = operation.method === "PUT" ? assertUpdateBody(update, fileId) : undefined;
    const { method } = operation;
    const maxBytes = option(resolved, callOptions, "maxResponseBytes");
    const path = operation.path.replace("{file_id}", encodeURIComponent(fileId));
    const requestHeaders = callOptions.headers ? merge(operation.headers, callOptions.headers) : operation.headers;
    const json = body ? JSON.stringify(body) : null;
    const {
      response,
      data: read2xx,
      attempts,
    } = await sendWithRetries(
      {
        operation: operation.id,
        method,
        path: redactString(path, secrets),
        baseUrl,
        secrets,
        log,
        maxRetries: option(resolved, callOptions, "maxRetries"),
        timeoutMs: option(resolved, callOptions, "timeoutMs"),
        signal: callOptions.signal,
        // Stryker disable next-line ConditionalExpression: equivalent; the race settles an attempt no later than the global fetch does.
        settlesOnAbort: fetch === globalFetch,
      },
      async (signal) => {
        // The spec documents no redirect: following one would send the update's body, or the answer of another
        // origin, as the service's (docs/decisions.md, D46).
        const init: AttemptInit = { method, headers: requestHeaders, body: json, redirect: "manual", signal };
        // Stryker disable next-line ConditionalExpression: equivalent; both paths send the same request (see above).
        const answer = throughRaw
          ? await throughMiddleware(path, body, init, maxBytes)
          : await fetchOnce(fetch, baseUrl + path, init);
        // Read inside the attempt, so that its timeout covers the body too.
        const limited = await readLimited(answer.body, maxBytes);
        return answer.ok
          ? { response: answer, data: limited }
          : { response: answer, error: errorBodyOf(limited.bytes), cut: limited.cut ? maxBytes : undefined };
      },
    );
    const text = decodeLossy(read2xx.bytes);
    const contentType = response.headers.get("content-type");
    const decoded = decodeBody(read2xx.bytes, text);
    const parsed: Parsed<T> = read2xx.cut
      ? fail(`the body is over ${maxBytes} bytes (maxResponseBytes)`)
      : decoded.ok
        ? operation.read(text, contentType)
        : decoded;
    if (!parsed.ok) {
      const { missing } = parsed;
      // Metadata of another shape shows member names only: its values may be secrets.
      const shown = missing ? "" : redactString(bodyExcerpt(text), secrets);
      const message = `${operation.id} got HTTP ${response.status} but ${redactString(parsed.problem, secrets)}${shown && ` (content type ${contentType ?? "none"}; body: ${shown})`}: the server breaks the File Library contract.`;
      throw new (missing ? MetadataShapeError : MalformedResponseError)(message, {
        operation: operation.id,
        status: response.status,
        bodyExcerpt: shown,
        missing: missing!,
      });
    }
    return { data: parsed.value, response, attempts };
  }

  // Each operation's request headers, merged once: JSON's Content-Type first, then the client's, then the operation's.
  const getFile: Operation<FileMetadata> = {
    id: "getFile",
    method: "GET",
    path: FILE_PATH,
    headers: merge(headers),
    read: parseMetadata,
  };
  // The success body is empty by contract; some servers send `null` or `{}`. Nothing in it is used.
  const updateFile: Operation<void> = {
    id: "updateFile",
    method: "PUT",
    path: FILE_PATH,
    headers: merge({ "Content-Type": "application/json" }, headers),
    read: () => ({ ok: true, value: undefined }),
  };
  const getFileDownloadUrl: Operation<string> = {
    id: "getFileDownloadUrl",
    method: "GET",
    path: DOWNLOAD_PATH,
    headers: merge(headers, { Accept: DOWNLOAD_ACCEPT }),
    read: parseDownloadUrl,
  };
  /** The three methods, each resolving to what `pick` takes of its result. */
  const methods = <F>(pick: <T>(result: Result<T>) => unknown): F =>
    ({
      get: (fileId: string, callOptions?: RequestOptions) => call(getFile, fileId, callOptions).then(pick),
      update: (fileId: string, body: UpdateFileRequest, callOptions?: RequestOptions) =>
        call(updateFile, fileId, callOptions, body).then(pick),
      downloadUrl: (fileId: string, callOptions?: RequestOptions) =>
        call(getFileDownloadUrl, fileId, callOptions).then(pick),
    }) as F;
  return {
    raw,
    withResponse: { files: methods<FileOperationsWithResponse>(withRequestId) },
    files: methods<FileOperations>(dataOf),
  };
}

/** What a call resolves to before the caller picks: its data, or all of it with the request id. */
type Result<T> = Omit<WithResponse<T>, "requestId">;

const dataOf = <T>(result: Result<T>): T => result.data;

const withRequestId = <T>(result: Result<T>): WithResponse<T> => ({
  ...result,
  requestId: result.response.headers.get("x-request-id") ?? undefined,
});

/** A numeric option of one call: its own value, checked, or the client's. */
const option = (resolved: ResolvedOptions, callOptions: RequestOptions, name: NumericOption): number =>
  callOptions[name] === undefined ? resolved[name] : checkNumber(name, callOptions[name]);

/** Checks the shape an update needs, so that a typo is an error here rather than a silent no-op on a lenient server. */
function assertUpdateBody(body: unknown, fileId: string): UpdateFileRequest {
  if (!isObject(body)) {
    throw new InvalidArgumentError(
      `The update of file ${showFileId(fileId)} needs an object such as { labels: ["a"] }.`,
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
