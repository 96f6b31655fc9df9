import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { createGzip } from "node:zlib";
import { forwardRequest } from "./forward-request.ts";
import { onLoopback } from "./hostile-server.ts";

/** The answers a server may give first that the start-up read must not take at face value: each hostile one breaks the contract in its own way; a 429 asks to be waited out. */
export const FIRST_ANSWERS = {
  /** A documented 429 asking for a second's wait: the request is sent again after it. */
  "rate-limited": (res: ServerResponse) => rateLimited(res, "1"),
  /** The same asking for an hour, over the suite's cap per wait. */
  "rate-limited-for-an-hour": (res: ServerResponse) => rateLimited(res, "3600"),
  /** 200 JSON without end. */
  "huge-body": (res: ServerResponse) => endless(res, { "content-type": "application/json" }, '{"name":"'),
  /** The same, gzip-compressed as it is read: it inflates without end. */
  "gzip-bomb": (res: ServerResponse) =>
    endless(res, { "content-type": "application/json", "content-encoding": "gzip" }, "", true),
  /** Metadata whose name is Latin-1, not UTF-8. */
  "invalid-utf8": (res: ServerResponse) =>
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(
        Buffer.from(
          '{"id":"doc-1","name":"caf\xe9","size":1,"created_at":"2026-01-01T00:00:00Z","labels":[]}',
          "latin1",
        ),
      ),
  /** A redirect to itself, without end. */
  "redirect-loop": (res: ServerResponse, req: IncomingMessage) => res.writeHead(302, { location: req.url! }).end(),
  /** A body cut short: fewer bytes than its Content-Length, then the connection closed. */
  "short-body": (res: ServerResponse) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
    res.write('{"id":"doc-1"', () => res.socket?.destroy());
  },
} as const;

function rateLimited(res: ServerResponse, retryAfter: string): void {
  res
    .writeHead(429, { "content-type": "application/json", "retry-after": retryAfter, "x-request-id": "first-429" })
    .end(JSON.stringify({ detail: "Rate limit exceeded" }));
}

function endless(res: ServerResponse, headers: Record<string, string>, head: string, gzip = false): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let first = true;
  const body = new Readable({
    read() {
      this.push(first ? Buffer.concat([Buffer.from(head), chunk]) : chunk);
      first = false;
    },
  });
  res.writeHead(200, headers);
  (gzip ? body.pipe(createGzip()) : body).pipe(res);
  res.once("close", () => body.destroy());
}

/** A server in front of `upstream` that gives its first answer as `kind` says, and forwards every later request as it came. */
export async function hostileFirstAnswer(
  kind: keyof typeof FIRST_ANSWERS,
  upstream: string,
): Promise<{ origin: string; close(): Promise<void> }> {
  let answered = 0;
  const server: Server = createServer((req, res) => {
    if (answered++ === 0) return void (req.resume(), FIRST_ANSWERS[kind](res, req));
    forwardRequest(upstream, req, res);
  });
  return onLoopback(server);
}
