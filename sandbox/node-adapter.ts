import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { bearerToken } from "../lib/bearer-token.ts";
import { redactSecrets } from "../lib/redact-secrets.ts";
import { errorAnswer, type PlainAnswer, type PlainRequest, type Service } from "./core/plain.ts";

/** How the node:http adapter reads requests and reports them. */
export interface NodeAdapterOptions {
  /** Bodies over this many bytes get 413, answered before they are read. */
  maxBodyBytes: number;
  /** One line per request; never given the key. */
  log: (line: string) => void;
  /** The key clients send: wherever a logged path holds it (or the request's own bearer token), it shows as [REDACTED]. */
  apiKey?: string | undefined;
}

/** The request's body was over the limit. */
class BodyTooLarge extends Error {}

const NO_BODY = new Uint8Array(0);

/** A request that declares no body has none: most GETs take no read at all (node:http drains any stray bytes). */
const hasNoBody = (req: IncomingMessage) =>
  req.headers["transfer-encoding"] === undefined && (req.headers["content-length"] ?? "0") === "0";

/**
 * Reads the body of a request that declares one, up to `limit` bytes; refuses at once, unread, when Content-Length
 * already says more. (A request without one never comes here: see `hasNoBody`.)
 */
function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
  });
}

/** The http origin of a listening address (IPv6 in brackets): where a connection came to, or where a server listens. */
export function originOf({ address, port, family }: AddressInfo): string {
  return `http://${family === "IPv6" ? `[${address}]` : address}:${port}`;
}

/** Writes a plain answer; a dropped one closes the connection unanswered. */
function send(res: ServerResponse, answer: PlainAnswer): void {
  if (answer.drop) return void res.socket?.destroy();
  const { body } = answer;
  // A text body is written as text: node encodes it into the socket's buffer, with no Buffer made for it first.
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  const headers: Record<string, string | number> = answer.headers;
  // The answer is this request's alone (the service makes each anew): its headers take the length in place.
  headers["content-length"] = length;
  if (answer.close) headers.connection = "close";
  res.writeHead(answer.status, headers);
  res.end(res.req.method === "HEAD" ? undefined : body);
}

/**
 * A request's path (its query left out) with each secret replaced by [REDACTED], as it came or percent-encoded in any
 * way (lib/redact-secrets.ts: the rule of the proxy's reports), longer secrets first.
 */
function loggedPath(target: string, secrets: ReadonlyArray<string | undefined>): string {
  const known = [...new Set(secrets.filter((secret): secret is string => Boolean(secret)))].sort(
    (a, b) => b.length - a.length,
  );
  return redactSecrets(target.split("?")[0]!, known);
}

/** A node:http request listener that serves `service`: requests in, plain requests to the service, answers out. */
export function nodeRequestListener(
  service: Service,
  { maxBodyBytes, log, apiKey }: NodeAdapterOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  // Per connection: how many requests it carried, and where it came to (read once: address() is a system call).
  const connections = new WeakMap<Socket, { id: number; requests: number; origin: string }>();
  let opened = 0;
  return (req, res) => {
    const started = performance.now();
    let connection = connections.get(req.socket);
    if (!connection)
      connections.set(
        req.socket,
        (connection = { id: ++opened, requests: 0, origin: originOf(req.socket.address() as AddressInfo) }),
      );
    const connectionRequests = ++connection.requests;
    const { origin, id } = connection;
    const target = req.url ?? "/";
    // The path as the log shows it: a client that puts the key in it (as a file id, say) must not have it printed.
    const logged = () => loggedPath(target, [apiKey, bearerToken(req.headers.authorization)]);
    // The answer's request id, as sent: writeHead with an object keeps no header for getHeader to read.
    let requestId: string | undefined;
    res.once("finish", () => {
      log(
        `${req.method} ${logged()} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms ${requestId ?? "-"}`,
      );
    });
    // node:http joins a repeated request header with ", " already; only set-cookie stays a list, and no request sends it.
    const headers = req.headers as Record<string, string | undefined>;

    const serve = (body: Uint8Array) =>
      service({
        method: req.method ?? "GET",
        target,
        headers,
        body,
        origin,
        connectionRequests,
        connection: id,
      } satisfies PlainRequest);
    // Most requests (every GET) have no body: they go to the service at once, not a promise later. Called outside a
    // promise, a layer that throws instead of rejecting must still get the 500 below, not end the process.
    let answering: Promise<PlainAnswer>;
    try {
      answering = hasNoBody(req) ? serve(NO_BODY) : readBody(req, maxBodyBytes).then(serve);
    } catch (error) {
      answering = Promise.reject(error);
    }
    answering
      .then((answer) => {
        requestId = answer.headers["x-request-id"];
        send(res, answer);
      })
      .catch((error: unknown) => {
        if (error instanceof BodyTooLarge) {
          // Answer before the body is read, close afterwards, and discard the rest without buffering it.
          send(res, {
            ...errorAnswer(413, "body_too_large", `The request body is over the limit of ${maxBodyBytes} bytes.`),
            close: true,
          });
          req.resume();
          return;
        }
        // A client that goes away mid-request is not the sandbox's failure: nothing is left to answer.
        if (
          req.destroyed ||
          (error as NodeJS.ErrnoException).code === "ECONNRESET" ||
          (error as Error).message === "aborted"
        ) {
          log(`${req.method} ${logged()} client closed the connection before the request was complete`);
          return;
        }
        log(`internal error: ${(error as Error).stack ?? String(error)}`);
        if (!res.headersSent) send(res, errorAnswer(500, "internal_error", "The sandbox failed; see its log."));
        else res.destroy();
      });
  };
}
