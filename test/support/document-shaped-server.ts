import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A server that answers as the service's own OpenAPI document says (its generated `/openapi.json`: FastAPI,
 * `FileResponse`, `FilesUpdateRequest`, `HTTPValidationError`), not as the description does: camelCase metadata with a
 * UUID `fileId`, `sizeBytes`, `creationDate`/`lastUpdated` as dates, `null` for what is not set; `null` as the update's
 * JSON answer; the download's URL as a JSON string; FastAPI's `detail` errors. Its behaviour is the service's where the
 * kit's decisions follow the service (docs/decisions.md): an update ignores other members and `null`s, takes any string
 * as `publicUrl`, refuses more than 20 labels with 422, and moves `lastUpdated`; a UUID is found in any letter case.
 */
export interface DocumentShapedServer {
  baseUrl: string;
  /** The one file's id, a lower-case UUID. */
  fileId: string;
  apiKey: string;
  /** The file as stored now. */
  file: Record<string, unknown>;
  /** Every request's method, path and body text, in order. */
  requests: { method: string; path: string; body: string }[];
  close(): Promise<void>;
}

const FILE_ID = "3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2d";
const API_KEY = "document-shaped-key-0123456789";
const CONTENT = "the contents of notes.txt\n";
const MAX_LABELS = 20;
const PREFIX = "/studio/v1/library/files/";

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const detail = (loc: (string | number)[], msg: string, type: string) => ({ detail: [{ loc, msg, type }] });

/** What an update body changes, or the 422 it gets, as pydantic would judge a `FilesUpdateRequest`. */
function judgeUpdate(text: string): { changes: Record<string, unknown> } | { refusal: unknown } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { refusal: detail(["body", 0], "JSON decode error", "json_invalid") };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return { refusal: detail(["body"], "Input should be a valid dictionary", "model_attributes_type") };
  const { publicUrl, labels } = body as { publicUrl?: unknown; labels?: unknown };
  const changes: Record<string, unknown> = {};
  if (publicUrl !== undefined && publicUrl !== null) {
    if (typeof publicUrl !== "string")
      return { refusal: detail(["body", "publicUrl"], "Input should be a valid string", "string_type") };
    changes.publicUrl = publicUrl;
  }
  if (labels !== undefined && labels !== null) {
    if (!Array.isArray(labels) || labels.some((l) => typeof l !== "string"))
      return { refusal: detail(["body", "labels"], "Input should be a valid list", "list_type") };
    if (new Set(labels).size > MAX_LABELS)
      return { refusal: detail(["body", "labels"], `at most ${MAX_LABELS} unique labels`, "too_long") };
    changes.labels = labels;
  }
  return { changes };
}

/** How a document-shaped server may differ from the service, each way a correct one. */
export interface DocumentShapedOptions {
  /** Refuse the file's UUID in another letter case with 422, as a server that compares ids as text does. */
  exactCase?: boolean;
}

/** Starts a document-shaped server on port 0 of 127.0.0.1. */
export async function documentShapedServer(options: DocumentShapedOptions = {}): Promise<DocumentShapedServer> {
  const requests: DocumentShapedServer["requests"] = [];
  const file: Record<string, unknown> = {
    fileId: FILE_ID,
    name: "notes.txt",
    fileType: "txt",
    sizeBytes: Buffer.byteLength(CONTENT),
    createdBy: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    creationDate: "2026-03-04",
    lastUpdated: "2026-03-04",
    status: "PROCESSED",
    path: null,
    labels: ["finance"],
    publicUrl: null,
    errorCode: null,
    errorMessage: null,
  };
  let updates = 0;
  const sockets = new Set<Socket>();
  let baseUrl = "";

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    requests.push({ method: req.method ?? "", path: url.pathname, body });
    if (url.pathname === "/signed/notes.txt") return void res.end(CONTENT);
    if (!url.pathname.startsWith(PREFIX)) return json(res, 404, { detail: "Not Found" });
    if (req.headers.authorization !== `Bearer ${API_KEY}`) return json(res, 401, { detail: "Unauthorized" });
    const [rawId = "", action, ...rest] = url.pathname.slice(PREFIX.length).split("/");
    const id = decodeURIComponent(rawId);
    if (rest.length > 0 || (action !== undefined && action !== "download"))
      return json(res, 404, { detail: "Not Found" });
    // FastAPI parses a `format: uuid` parameter: any letter case is the same UUID, anything else is a 422.
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
      return json(res, 422, detail(["path", "file_id"], "Input should be a valid UUID", "uuid_parsing"));
    if ((options.exactCase ? id : id.toLowerCase()) !== FILE_ID)
      return json(res, 422, { detail: `File ${id} not found` });
    if (action === "download")
      return req.method === "GET"
        ? json(res, 200, `${baseUrl}/signed/notes.txt?signature=abc`)
        : json(res, 405, { detail: "Method Not Allowed" });
    if (req.method === "GET") return json(res, 200, file);
    if (req.method !== "PUT") return json(res, 405, { detail: "Method Not Allowed" });
    const verdict = judgeUpdate(body);
    if ("refusal" in verdict) return json(res, 422, verdict.refusal);
    Object.assign(file, verdict.changes);
    updates += 1;
    file.lastUpdated = new Date(Date.UTC(2026, 2, 4) + updates * 86_400_000).toISOString().slice(0, 10);
    return json(res, 200, null);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    fileId: FILE_ID,
    apiKey: API_KEY,
    file,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
