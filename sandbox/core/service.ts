import type { OperationId } from "../../src/generated/schema.d.ts";
import {
  createRequestInspector,
  type InspectedRequest,
  type RequestRule,
} from "../../lib/openapi/request-inspection.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { createKeyCheck } from "./api-key.ts";
import {
  emptyAnswer,
  errorAnswer,
  jsonAnswer,
  textAnswer,
  textOf,
  type ErrorDetail,
  type PlainAnswer,
  type PlainRequest,
  type Service,
} from "./plain.ts";
import { CONTENT_PATH_PREFIX, type UrlSigner } from "./signed-urls.ts";
import type { FilePatch, FileRecord, FileStorage } from "./storage.ts";

export type { OperationId };

/** The parts of the spec the service reads: its paths (to route) and its request schemas (to validate). */
export type ServiceSpec = Pick<
  OpenApiValidator,
  "document" | "validateRequestBody" | "requiresAuth" | "requestBodyMediaTypes"
>;

/** What the service needs; each adapter composes it (sandbox/start.ts, the fake). */
export interface ServiceDependencies {
  apiKey: string;
  storage: FileStorage;
  signer: UrlSigner;
  spec: ServiceSpec;
}

/** The metadata as the spec defines it. */
export function metadataOf(file: FileRecord): Record<string, unknown> {
  const { id, name, size, created_at, labels, publicUrl } = file;
  return publicUrl == null ? { id, name, size, created_at, labels } : { id, name, size, created_at, labels, publicUrl };
}

/** The answer for an id the storage does not have: 422, as the description says (not 404). */
export const unknownIdAnswer = (fileId: string): PlainAnswer =>
  errorAnswer(422, "file_not_found", `No file with id ${JSON.stringify(fileId)} exists in this workspace.`);

const UNAUTHORIZED = { "www-authenticate": 'Bearer realm="file-library"' };

/**
 * The File Library as the spec and docs/decisions.md define it, for any transport: the three operations and the
 * signed content URLs, from a plain request to a plain answer. It has no fault switch: faults and variants are
 * wrappers around it (sandbox/fault-layer.ts).
 */
export function createFileLibraryService({ apiKey, storage, signer, spec }: ServiceDependencies): Service {
  const inspect = createRequestInspector(spec);
  const checkKey = createKeyCheck(apiKey);

  type Handler = (
    request: PlainRequest,
    fileId: string,
    inspected: InspectedRequest,
  ) => PlainAnswer | Promise<PlainAnswer>;
  // One handler per operation of the spec: a missing one is a type error.
  const handlers: Record<OperationId, Handler> = {
    getFile(_request, fileId) {
      const file = storage.get(fileId);
      return file ? jsonAnswer(200, metadataOf(file)) : unknownIdAnswer(fileId);
    },

    updateFile(_request, fileId, { mediaType, json, findings }) {
      const found = (rule: RequestRule) => findings.find((finding) => finding.rule === rule);
      if (found("request_content_type")) {
        return errorAnswer(
          422,
          "unsupported_media_type",
          `Send the body as JSON with Content-Type: application/json (got ${mediaType || "none"}).`,
        );
      }
      const invalid = found("request_body_valid");
      if (invalid?.parseError !== undefined)
        return errorAnswer(422, "invalid_json", `The request body is not valid JSON: ${invalid.parseError}`);
      if (invalid?.issues) {
        const detail: ErrorDetail[] = invalid.issues.map((issue) => ({
          loc: ["body", ...issue.path],
          msg: issue.message,
          type: issue.keyword,
        }));
        const fields = [...new Set(detail.map((d) => d.loc.slice(1).join(".") || "(the body)"))];
        return errorAnswer(
          422,
          "invalid_body",
          `The request body does not match UpdateFileRequest: check ${fields.join(", ")}.`,
          detail,
        );
      }
      return storage.update(fileId, json as FilePatch) ? emptyAnswer(200) : unknownIdAnswer(fileId);
    },

    async getFileDownloadUrl(request, fileId) {
      if (!storage.get(fileId)) return unknownIdAnswer(fileId);
      return textAnswer(200, await signer.sign(request.origin, fileId));
    },
  };
  const isOperation = (id: string | undefined): id is OperationId => id !== undefined && Object.hasOwn(handlers, id);

  /** Serves the bytes behind a signed URL; needs no key, only a valid, unexpired signature. */
  async function serveContent(request: PlainRequest, rawId: string, query: URLSearchParams): Promise<PlainAnswer> {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return errorAnswer(405, "method_not_allowed", `${request.method} is not allowed here.`, undefined, {
        allow: "GET, HEAD",
      });
    }
    let fileId: string;
    try {
      fileId = decodeURIComponent(rawId);
    } catch {
      return errorAnswer(403, "invalid_signature", "This download URL is not valid.");
    }
    // One spelling per signed URL: the id encoded as `sign` encodes it, not `%66ile` for `file`.
    const check =
      rawId === encodeURIComponent(fileId)
        ? await signer.verify(fileId, query.get("expires"), query.get("signature"))
        : "invalid";
    if (check === "expired")
      return errorAnswer(403, "url_expired", "This download URL has expired: ask for a new one.");
    if (check === "invalid")
      return errorAnswer(403, "invalid_signature", "This download URL is not valid (its signature does not match).");
    const file = storage.get(fileId);
    const content = storage.content(fileId);
    if (!file || !content) return errorAnswer(404, "file_gone", "The file of this download URL no longer exists.");
    return {
      status: 200,
      headers: {
        "content-type": "application/octet-stream",
        "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      },
      body: content,
    };
  }

  function answer(request: PlainRequest): PlainAnswer | Promise<PlainAnswer> {
    // Match on the raw path: decoding first would split an id holding "%2F" into two segments.
    const [rawPath = "", rawQuery = ""] = request.target.split("?", 2);
    if (!rawPath.startsWith("/"))
      return errorAnswer(
        400,
        "bad_request_target",
        `The request target must be a path starting with /, got ${JSON.stringify(rawPath.slice(0, 80))}.`,
      );
    if (rawPath.startsWith(CONTENT_PATH_PREFIX))
      return serveContent(request, rawPath.slice(CONTENT_PATH_PREFIX.length), new URLSearchParams(rawQuery));

    // The body is read as text only where the operation takes one; a GET's is never decoded.
    const inspected = inspect({
      method: request.method,
      rawPath,
      headers: request.headers,
      body: request.body.length === 0 ? undefined : textOf(request.body),
    });
    const operationId = inspected.operationId;
    if (inspected.allow.length === 0)
      return errorAnswer(404, "not_found", `No such route: ${request.method} ${rawPath.slice(0, 200)}.`);
    if (!isOperation(operationId)) {
      return errorAnswer(405, "method_not_allowed", `${request.method} is not allowed on ${rawPath}.`, undefined, {
        allow: inspected.allow.join(", "),
      });
    }
    const key = checkKey(request.headers.authorization);
    if (key === "missing")
      return errorAnswer(
        401,
        "unauthorized",
        "Missing API key: send Authorization: Bearer <API_KEY>.",
        undefined,
        UNAUTHORIZED,
      );
    if (key === "wrong") return errorAnswer(401, "unauthorized", "The API key is not valid.", undefined, UNAUTHORIZED);
    const fileId = inspected.params.file_id;
    if (fileId === undefined)
      return errorAnswer(422, "invalid_file_id", "The file id in the path is not valid percent-encoding.");
    return handlers[operationId](request, fileId, inspected);
  }

  // Every answer above is made for this request alone: it takes its id in place.
  const withId = (result: PlainAnswer) => {
    result.headers["x-request-id"] = crypto.randomUUID();
    return result;
  };
  return (request) => {
    let result;
    try {
      result = answer(request);
    } catch (error) {
      return Promise.reject(error);
    }
    // A read answers at once; only a signature (download) or content waits: no extra turn for the others.
    return result instanceof Promise ? result.then(withId) : Promise.resolve(withId(result));
  };
}
