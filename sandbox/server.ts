import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { operations } from "../src/generated/schema.d.ts";
import { mediaTypeOf } from "../lib/openapi/media-type.ts";
import type { OpenApiValidator } from "../lib/openapi/validator.ts";
import { createKeyCheck } from "./api-key.ts";
import type { CorsPolicy } from "./cors.ts";
import { metadataOf, type Behaviour, type LabelUpdate } from "./behaviour.ts";
import { BodyTooLargeError, readBody, sendEmpty, sendError, sendJson, sendText, type ErrorDetail } from "./http-io.ts";
import { createRouter } from "../lib/openapi/router.ts";
import { CONTENT_PATH_PREFIX, type UrlSigner } from "./signed-urls.ts";
import type { FilePatch, FileRecord, FileStore } from "./storage.ts";

/** What the server needs; the composition lives in start.ts. */
export interface ServerDependencies {
  apiKey: string;
  store: FileStore;
  signer: UrlSigner;
  spec: OpenApiValidator;
  behaviour: Behaviour;
  maxBodyBytes: number;
  /** One line per request; never given the key. */
  log: (line: string) => void;
  /** CORS for browser apps; absent when it is off. */
  cors?: CorsPolicy | undefined;
}

type Handler = (req: IncomingMessage, res: ServerResponse, fileId: string) => Promise<void> | void;

/** The operations of the spec, by operationId (generated from it). */
type OperationId = keyof operations;

/** The sandbox's HTTP server: the three operations of the spec and the signed content URLs. */
export function createSandboxServer(deps: ServerDependencies): Server {
  const { store, signer, spec, behaviour, log, cors } = deps;
  const route = createRouter(spec);
  const checkKey = createKeyCheck(deps.apiKey, behaviour.keyCompared);

  const baseUrlOf = (req: IncomingMessage) => {
    const { address, port, family } = req.socket.address() as AddressInfo;
    return `http://${family === "IPv6" ? `[${address}]` : address}:${port}`;
  };

  const unknownId = (res: ServerResponse, fileId: string) => sendJson(res, behaviour.unknownIdStatus(fileId), behaviour.unknownIdBody(fileId));
  const updatable = Object.keys((spec.requestBodySchema("updateFile", "application/json").properties ?? {}) as object);

  // One handler per operation of the spec: a missing one is a type error.
  const handlers: Record<OperationId, Handler> = {
    getFile(_req, res, fileId) {
      const file = store.get(fileId);
      if (!file) return unknownId(res, fileId);
      sendJson(res, 200, behaviour.metadataBody(file), behaviour.metadataContentType);
    },

    async updateFile(req, res, fileId) {
      let raw: Buffer;
      try {
        raw = await readBody(req, deps.maxBodyBytes);
      } catch (error) {
        if (!(error instanceof BodyTooLargeError)) throw error;
        // Answer before the body is read, close afterwards, and discard the rest without buffering it.
        sendError(res, 413, "body_too_large", `The request body is over the limit of ${deps.maxBodyBytes} bytes.`, undefined, {
          connection: "close",
        });
        req.resume();
        return;
      }
      const mediaType = mediaTypeOf(req.headers["content-type"]);
      if (mediaType !== "application/json") {
        return sendError(res, 422, "unsupported_media_type", `Send the body as JSON with Content-Type: application/json (got ${mediaType || "none"}).`);
      }
      let body: unknown;
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch (error) {
        return sendError(res, behaviour.malformedJsonStatus, "invalid_json", `The request body is not valid JSON: ${(error as Error).message}`);
      }
      if (behaviour.updateCreatesUnknown && !store.get(fileId)) return sendEmpty(res, 200);
      if (behaviour.ignoresUnknownFields && body !== null && typeof body === "object" && !Array.isArray(body)) {
        body = Object.fromEntries(Object.entries(body).filter(([key]) => updatable.includes(key)));
      }
      const result = spec.validateRequestBody("updateFile", mediaType, body);
      // The fault answers 200 to an invalid body and stores none of it (nothing it could not read back).
      if (!result.valid && behaviour.acceptsInvalidBody(body)) return store.get(fileId) ? sendEmpty(res, 200) : unknownId(res, fileId);
      if (!result.valid) {
        const detail: ErrorDetail[] = result.issues.map((issue) => ({ loc: ["body", ...issue.path], msg: issue.message, type: issue.keyword }));
        const fields = [...new Set(detail.map((d) => d.loc.slice(1).join(".") || "(the body)"))];
        return sendError(res, 422, "invalid_body", `The request body does not match UpdateFileRequest: check ${fields.join(", ")}.`, detail);
      }
      const current = store.get(fileId);
      if (!current) return unknownId(res, fileId);
      const refused = ((body as FilePatch).labels ?? []).filter((label) => behaviour.refusesLabel(label));
      if (refused.length > 0) return sendError(res, 422, "label_refused", `These labels are not allowed: ${JSON.stringify(refused)}.`);
      store.update(fileId, patchFor(current, body as FilePatch, behaviour.labelUpdate));
      if (behaviour.updateAnswer === "metadata") return sendJson(res, 200, metadataOf(store.get(fileId)!));
      if (behaviour.updateAnswer === "empty-object") return sendJson(res, 200, {});
      sendEmpty(res, 200);
    },

    getFileDownloadUrl(req, res, fileId) {
      if (!store.get(fileId)) return unknownId(res, fileId);
      const { body, contentType } = behaviour.downloadAnswer(signer.sign(baseUrlOf(req), fileId));
      sendText(res, 200, body, contentType);
    },
  };

  const isOperation = (id: string | undefined): id is OperationId => id !== undefined && Object.hasOwn(handlers, id);

  /** Serves the bytes behind a signed URL; needs no key, only a valid, unexpired signature. */
  function serveContent(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (cors?.isPreflight(req)) return cors.answerPreflight(req, res, ["GET", "HEAD"]);
    if (req.method !== "GET" && req.method !== "HEAD") {
      return sendError(res, 405, "method_not_allowed", `${req.method} is not allowed here.`, undefined, { allow: "GET, HEAD" });
    }
    let fileId: string;
    try {
      fileId = decodeURIComponent(url.pathname.slice(CONTENT_PATH_PREFIX.length));
    } catch {
      return sendError(res, 403, "invalid_signature", "This download URL is not valid.");
    }
    const check = signer.verify(fileId, url.searchParams.get("expires"), url.searchParams.get("signature"));
    if (check === "expired") return sendError(res, 403, "url_expired", "This download URL has expired: ask for a new one.");
    if (check === "invalid") return sendError(res, 403, "invalid_signature", "This download URL is not valid (its signature does not match).");
    const file = store.get(fileId);
    const content = store.content(fileId);
    if (!file || !content) return sendError(res, 404, "file_gone", "The file of this download URL no longer exists.");
    res.writeHead(200, {
      "content-type": "application/octet-stream",
      "content-length": content.length,
      "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    });
    res.end(req.method === "HEAD" ? undefined : content);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "http://sandbox.invalid");
    if (url.pathname.startsWith(CONTENT_PATH_PREFIX)) return serveContent(req, res, url);

    // Match on the raw path: decoding first would split an id holding "%2F" into two segments.
    const rawPath = (req.url ?? "/").split("?")[0]!;
    const match = route(method, rawPath);
    if (!match) return sendError(res, 404, "not_found", `No such route: ${method} ${url.pathname}.`);
    if (cors?.isPreflight(req)) return cors.answerPreflight(req, res, match.allow);
    const operationId = match.operationId;
    if (!isOperation(operationId)) {
      return sendError(res, 405, "method_not_allowed", `${method} is not allowed on ${url.pathname}.`, undefined, {
        allow: match.allow.join(", "),
      });
    }
    const key = checkKey(req.headers.authorization);
    const needsKey = operationId !== "getFileDownloadUrl" || behaviour.downloadNeedsKey;
    if (needsKey && key !== "ok" && !(key === "wrong" && behaviour.anyBearerPasses)) {
      return sendError(
        res,
        key === "missing" ? behaviour.missingKeyStatus(operationId) : 401,
        "unauthorized",
        key === "missing" ? "Missing API key: send Authorization: Bearer <API_KEY>." : "The API key is not valid.",
        undefined,
        { "www-authenticate": 'Bearer realm="file-library"' },
      );
    }
    const fileId = match.params.file_id;
    if (fileId === undefined) return sendError(res, 422, "invalid_file_id", "The file id in the path is not valid percent-encoding.");
    await handlers[operationId](req, res, fileId);
  }

  let requests = 0;
  /** Whether the behaviour rate-limits this request (every Nth one). */
  const rateLimited = () => behaviour.rateLimitEvery > 0 && ++requests % behaviour.rateLimitEvery === 0;

  const requestsOn = new WeakMap<Socket, number>();
  let reusedRequests = 0;
  /** Whether the behaviour drops this request: it arrived on a connection that already carried one. */
  const dropped = (req: IncomingMessage) => {
    const count = (requestsOn.get(req.socket) ?? 0) + 1;
    requestsOn.set(req.socket, count);
    return behaviour.dropsReusedEvery > 0 && count > 1 && ++reusedRequests % behaviour.dropsReusedEvery === 0;
  };

  return createServer((req, res) => {
    if (dropped(req)) return void req.socket.destroy();
    const started = performance.now();
    res.setHeader("x-request-id", behaviour.requestId(randomUUID()));
    for (const [name, value] of Object.entries(behaviour.extraHeaders(deps.apiKey))) res.setHeader(name, value);
    cors?.decorate(req, res);
    res.once("finish", () => {
      const path = (req.url ?? "/").split("?")[0];
      log(`${req.method} ${path} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms ${res.getHeader("x-request-id")}`);
    });
    // As a gateway does, before the service sees the request: its body is drained, not read.
    if (rateLimited()) {
      req.resume();
      return sendError(res, 429, "rate_limited", "Too many requests: try again in 1 second.", undefined, { "retry-after": "1" });
    }
    const handled = behaviour.delayMs > 0 ? new Promise((r) => setTimeout(r, behaviour.delayMs)).then(() => handle(req, res)) : handle(req, res);
    handled.catch((error: unknown) => {
      log(`internal error: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) sendError(res, 500, "internal_error", "The sandbox failed; see its log.");
      else res.destroy();
    });
  });
}

/** What an update writes: the contract's "replace, omitted keeps", or a fault's variation of it. */
function patchFor(current: FileRecord, sent: FilePatch, mode: LabelUpdate): FilePatch {
  switch (mode) {
    case "replace":
      return sent;
    case "drop":
      return {};
    case "append":
      return sent.labels ? { ...sent, labels: [...current.labels, ...sent.labels] } : sent;
    case "clear-when-omitted":
      return { ...sent, labels: sent.labels ?? [] };
  }
}
