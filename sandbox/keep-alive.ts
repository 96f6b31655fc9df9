import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How long idle connections stay open: what clients are told, and how long the sandbox really keeps them. */
export interface KeepAlivePolicy {
  /** Sent as `Keep-Alive: timeout=N`: clients retire an idle connection before then. */
  advertisedSeconds: number;
  /** How long the sandbox really keeps an idle connection, in milliseconds. */
  keptMs: number;
}

/**
 * Long, as behind most load balancers (60 s), with a grace of 5 s: a client that honours the advertised
 * timeout never writes a request into a connection the sandbox has just closed. (node:http closes at the very
 * second it advertises, 5 s by default: a client whose event loop stalls past that sends into a dead socket,
 * and gets "other side closed"; see docs/decisions.md, D23.)
 */
export const DEFAULT_KEEP_ALIVE: KeepAlivePolicy = { advertisedSeconds: 60, keptMs: 65_000 };

/**
 * Makes the server keep idle connections `keptMs`, and advertise the `Keep-Alive` timeout of the policy.
 * Returns what a shutdown calls: from then on every answer closes its connection, so that no client keeps
 * one idle while the server waits for its in-flight requests.
 */
export function keepIdleConnectionsLonger(server: Server, policy: KeepAlivePolicy = DEFAULT_KEEP_ALIVE): () => void {
  server.keepAliveTimeout = policy.keptMs;
  const advertisedMs = policy.advertisedSeconds * 1000;
  // Per connection, not per request: the open connections, and the answer each is working on (no listener per answer).
  const open = new Set<Socket>();
  const current = new WeakMap<Socket, ServerResponse>();
  let closing = false;
  server.on("connection", (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  // First among the request listeners, so that the header is set before any handler writes its head;
  // node:http then sends it instead of its own (which would announce the longer, real timeout).
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    if (closing) res.shouldKeepAlive = false;
    if (!res.shouldKeepAlive) return;
    // node:http writes `Keep-Alive: timeout=N` from this field when the answer sets none. Set here instead of with
    // setHeader: an answer whose head already holds a header is written by node's slower path (bench/sandbox-throughput.ts).
    (res as ServerResponse & { _keepAliveTimeout: number })._keepAliveTimeout = advertisedMs;
    current.set(req.socket, res);
  });
  return () => {
    closing = true;
    for (const socket of open) {
      const res = current.get(socket);
      if (!res || res.headersSent) continue;
      res.shouldKeepAlive = false;
    }
  };
}
