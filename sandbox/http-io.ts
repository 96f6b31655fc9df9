import type { IncomingMessage, ServerResponse } from "node:http";
import type { components } from "../src/generated/schema.d.ts";

/** The request body is over the limit; answered with 413. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
}

/** Reads a request body up to `limit` bytes; refuses at once, unread, when Content-Length already says more. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/** Sends a JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = "application/json"): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Sends a text answer. */
export function sendText(res: ServerResponse, status: number, text: string, contentType = "text/plain; charset=utf-8"): void {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Sends an answer with no body. */
export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, "content-length": 0 });
  res.end();
}

/** One problem in a request, in the `detail` list of an error body (ValidationErrorItem). */
export type ErrorDetail = components["schemas"]["ValidationErrorItem"];

/** Sends an error body of the documented shape: a code, a message, and optionally the problems found. */
export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  detail?: ErrorDetail[],
  headers: Record<string, string> = {},
): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const body: components["schemas"]["ErrorBody"] = detail ? { code, message, detail } : { code, message };
  sendJson(res, status, body);
}
