import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import type { Dispatcher } from "undici";

/** Headers of one connection only (RFC 9110 §7.6.1): never forwarded, in either direction. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"]);

/** The first bytes of a body, and how many bytes it had in all. */
export interface CapturedBody {
  /** At most the capture limit's bytes, as they went over the wire (compressed, if the answer was). */
  bytes: Uint8Array;
  /** Every byte that passed, captured or not. */
  total: number;
  /** Whether the body was longer than the capture limit: its bytes are not all here. */
  cut: boolean;
}

/** One request and its answer as they passed through, with when each happened (ms, performance.now()). */
export interface PassedExchange {
  /** What `onRequest` returned for this request. */
  token: unknown;
  method: string;
  /** The request target as the app sent it: path and query, percent-encoding untouched. */
  target: string;
  requestHeaders: Record<string, string | string[] | undefined>;
  requestBody: CapturedBody;
  status: number;
  /** The answer's headers as the upstream sent them, names lower-case. */
  responseHeaders: Record<string, string | string[] | undefined>;
  responseBody: CapturedBody;
  /** When the request arrived. */
  startedAt: number;
  /** When the answer's last byte was passed on. */
  endedAt: number;
}

/** A request the upstream did not answer, or whose answer broke off. */
export interface UpstreamFailure {
  /** What `onRequest` returned for this request. */
  token: unknown;
  method: string;
  target: string;
  reason: string;
  startedAt: number;
}

/** What the proxy does to an answer it held (ForwardOptions.judgeBeforeAnswer). */
export type AnswerChange = { addHeaders: Record<string, string> } | { replace: { status: number; headers: Record<string, string>; body: string } };

/** How to forward, and whom to tell. */
export interface ForwardOptions {
  upstream: string;
  host?: string | undefined;
  /** 0 (the default) for a free port. */
  port?: number | undefined;
  /** How much of each body is kept to be judged; the rest passes through unkept. */
  captureBytes: number;
  /** Called when a request arrives, before it is forwarded; what it returns comes back with the exchange (`token`). */
  onRequest?: ((request: { method: string; target: string; startedAt: number }) => unknown) | undefined;
  /** Called once an exchange has passed whole; after the app has its answer. */
  onExchange(exchange: PassedExchange): void;
  onUpstreamFailure(failure: UpstreamFailure): void;
  /**
   * Opt-in (--findings-header, --fail-on-service-finding): each answer is held until it has ended, judged here, and
   * then passed on with the headers this returns added, or replaced by the answer it returns. An answer longer than
   * `captureBytes` is passed on as it comes, and told to `onExchange` after, as without this.
   */
  judgeBeforeAnswer?: ((exchange: PassedExchange) => AnswerChange) | undefined;
  /** Called when the app went away before its answer was passed on: no finding, only a count. */
  onClientGone?: ((request: { token: unknown; method: string; target: string }) => void) | undefined;
}

/** How long close() waits for exchanges in flight, by default: an upstream that holds a request cannot hold the run. */
export const DRAIN_MS = 5_000;

/** The forwarding server. */
export interface Forwarding {
  url: string;
  /**
   * Stops taking requests (each new one is answered 503, saying the proxy is stopping), waits for the exchanges in
   * flight for at most `drainMs`, cuts those still in flight then (each app gets a 502 that says so, or its connection
   * closed if its answer had begun), then stops listening and closes the upstream connections. Resolves with how many
   * exchanges were cut. With `refuseUntil` (a command that still runs), it goes on answering 503 until that settles,
   * and stops listening then; it resolves without waiting for it.
   */
  close(drainMs?: number, refuseUntil?: Promise<unknown>): Promise<{ cut: number }>;
  /** Cuts the exchanges in flight at once; a close() under way then ends without waiting any longer. */
  cutNow(): void;
}

/** Keeps the first `limit` bytes of a body that passes, and counts all of them. */
class Capture {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  total = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.keptBytes <= this.limit) {
      const part = chunk.length + this.keptBytes > this.limit + 1 ? chunk.subarray(0, this.limit + 1 - this.keptBytes) : chunk;
      this.kept.push(part);
      this.keptBytes += part.length;
    }
  }

  body(): CapturedBody {
    const all = this.kept.length === 1 ? this.kept[0]! : Buffer.concat(this.kept);
    const cut = all.length > this.limit;
    return { bytes: cut ? all.subarray(0, this.limit) : all, total: this.total, cut };
  }
}

const EMPTY: CapturedBody = { bytes: new Uint8Array(0), total: 0, cut: false };

/** The request's headers for the upstream: hop-by-hop ones and Host left out (undici names the upstream's host). */
function forwardedHeaders(raw: string[]): string[] {
  const named = new Set<string>(HOP_BY_HOP);
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === "connection") for (const token of raw[i + 1]!.split(",")) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    // Expect: 100-continue is answered by node:http to the app itself; undici refuses to send it on (UND_ERR_NOT_SUPPORTED).
    if (named.has(name) || name === "host" || name === "expect") continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** The answer's headers for the app, without hop-by-hop ones (node:http frames the body its own way). */
function answeredHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const connection = headers.connection;
  const named = new Set<string>(HOP_BY_HOP);
  for (const token of (Array.isArray(connection) ? connection.join(",") : (connection ?? "")).split(",")) named.add(token.trim().toLowerCase());
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !named.has(name)) out[name] = value;
  return out;
}

/** A JSON answer of the proxy's own, for what the upstream could not answer; a socket that cannot take one is closed. */
function badGateway(res: ServerResponse, reason: string): void {
  const body = JSON.stringify({ error: { code: "upstream_unreachable", message: `The contract proxy could not reach the upstream: ${reason}.` } });
  try {
    res.writeHead(502, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "x-contract-proxy": "upstream-unreachable" });
    res.end(body);
  } catch {
    res.destroy();
  }
}

/**
 * The upstream's reason phrase as the bytes it sent: undici decodes them as UTF-8, and node:http writes a phrase as
 * Latin-1, one byte a character, so the UTF-8 bytes are written back one a character. A phrase whose bytes were not
 * UTF-8 (decoded with U+FFFD), or that holds a control character, gives way to the status's standard phrase.
 */
function reasonBytes(statusMessage: string | undefined): string | undefined {
  if (!statusMessage || statusMessage.includes("\uFFFD")) return undefined;
  const bytes = Buffer.from(statusMessage, "utf8").toString("latin1");
  return /^[\t \x21-\x7e\x80-\xff]*$/.test(bytes) ? bytes : undefined;
}

/**
 * Forwards an interim answer (1xx) as one: 100 and 102 as node:http writes them, 103 with its hints. Resolves whether
 * it was interim, so that the final answer still comes after.
 */
function forwardInterim(res: ServerResponse, statusCode: number, headers: Record<string, string | string[] | undefined>): boolean {
  if (statusCode >= 200 || statusCode === 101) return false;
  if (statusCode === 100) res.writeContinue();
  else if (statusCode === 102) res.writeProcessing();
  else if (statusCode === 103) res.writeEarlyHints(answeredHeaders(headers) as Record<string, string | string[]>);
  // Any other 1xx has nothing a client may rely on: it is not passed on, and the final answer follows.
  return true;
}

/**
 * Forwards every request to the upstream as it came, and every answer back as it came, streaming both ways with
 * backpressure; only hop-by-hop headers are dropped, and Host names the upstream (RFC 9110 §7.2, §7.6.1). What passes
 * is told to `onExchange` once the app has its answer, with the first bytes of each body: judging never delays it.
 */
export async function startForwarding(options: ForwardOptions): Promise<Forwarding> {
  const upstreamUrl = new URL(options.upstream);
  // The upstream's own path prefix, if any, goes before each target (a base URL such as https://host/api).
  const prefix = upstreamUrl.pathname.replace(/\/+$/, "");
  // Loaded when a proxy starts, not when the package is imported: a program that only runs the suite never needs it.
  const { Agent } = await import("undici");
  const agent = new Agent({ keepAliveTimeout: 4_000 });
  const inFlight = new Set<Promise<void>>();
  // How to cut each exchange in flight: its upstream request is aborted with the reason, and the app is answered.
  const cutters = new Set<(reason: string) => void>();
  let cutAll: (() => void) | undefined;
  let cutRequested = false;

  /**
   * Forwards one exchange with undici's dispatch API: the answer's chunks go straight to the app's socket, paused when
   * it is full and resumed when it drains; no stream object, no AbortController per request (the bench's hot path).
   */
  function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    const method = req.method ?? "GET";
    const target = req.url ?? "/";
    const token = options.onRequest?.({ method, target, startedAt });
    const hasBody = req.headers["content-length"] !== undefined ? req.headers["content-length"] !== "0" : req.headers["transfer-encoding"] !== undefined;
    const requestCapture = hasBody ? new Capture(options.captureBytes) : undefined;
    // The body goes on as it comes, kept in part on the way, and the app is paused while the upstream is slower.
    let requestBody: PassThrough | undefined;
    if (requestCapture) {
      const body = (requestBody = new PassThrough());
      req.on("data", (chunk: Buffer) => {
        requestCapture.add(chunk);
        if (!body.write(chunk)) req.pause();
      });
      body.on("drain", () => req.resume());
      req.on("end", () => body.end());
      req.on("error", (error) => body.destroy(error));
    } else req.resume();
    const responseCapture = new Capture(options.captureBytes);
    return new Promise<void>((settle) => {
      let status = 0;
      let responseHeaders: Record<string, string | string[] | undefined> = {};
      let upstream: Dispatcher.DispatchController | undefined;
      let done = false;
      let phrase: string | undefined;
      // The answer's chunks while it is held to be judged first (opt-in); undefined once it is passed on as it comes.
      let held: Buffer[] | undefined = options.judgeBeforeAnswer ? [] : undefined;
      let heldBytes = 0;
      // Every exchange ends, whatever its outcome throws: the in-flight set, and so stop(), never wait on it forever.
      const finish = (outcome: () => void) => {
        if (done) return;
        done = true;
        try {
          outcome();
        } finally {
          settle();
        }
      };
      const appGone = () => {
        if (res.writableFinished || done) return;
        upstream?.abort(new Error("the app went away"));
        finish(() => options.onClientGone?.({ token, method, target }));
      };
      res.on("close", appGone);
      const cut = (reason: string) => {
        if (done) return;
        upstream?.abort(new Error(reason));
        // The abort comes back through onResponseError; an exchange whose dispatch never started is ended here.
        if (!upstream) {
          finish(() => {
            options.onUpstreamFailure({ token, method, target, reason, startedAt });
            if (!res.headersSent) badGateway(res, reason);
            else res.destroy();
          });
        }
      };
      cutters.add(cut);
      /** Writes the answer's head to the app, with headers added; a head node:http will not write ends the exchange with a 502. */
      const writeHead = (controller: Dispatcher.DispatchController, added: Record<string, string>): boolean => {
        try {
          // A phrase node:http cannot write (outside Latin-1, as undici decodes it) gives way to the status's own.
          const reason = reasonBytes(phrase);
          const headers = { ...answeredHeaders(responseHeaders), ...added };
          if (reason) res.writeHead(status, reason, headers);
          else res.writeHead(status, headers);
          return true;
        } catch (error) {
          // Headers node:http will not write: the exchange ends with the proxy's 502 saying why, never a hang.
          const reason = `the upstream's answer (HTTP ${status}) could not be passed on: ${(error as Error).message}`;
          controller.abort(new Error(reason));
          finish(() => {
            options.onUpstreamFailure({ token, method, target, reason, startedAt });
            if (!res.headersSent) badGateway(res, reason);
            else res.destroy();
          });
          return false;
        }
      };
      res.once("close", () => cutters.delete(cut));
      res.on("drain", () => upstream?.resume());
      agent.dispatch(
        { origin: upstreamUrl.origin, path: `${prefix}${target}`, method: method as Dispatcher.HttpMethod, headers: forwardedHeaders(req.rawHeaders), body: requestBody ?? null },
        {
          onRequestStart(controller) {
            upstream = controller;
          },
          onResponseStart(controller, statusCode, headers, statusMessage) {
            if (forwardInterim(res, statusCode, headers)) return;
            status = statusCode;
            responseHeaders = headers;
            phrase = statusMessage;
            if (!held) writeHead(controller, {});
          },
          onResponseData(controller, chunk) {
            if (done) return;
            responseCapture.add(chunk);
            if (held) {
              held.push(chunk);
              heldBytes += chunk.length;
              if (heldBytes <= options.captureBytes) return;
              // Too long to hold: passed on as it comes from now on, and judged after, as without holding.
              const chunks = held;
              held = undefined;
              if (!writeHead(controller, {})) return;
              for (const part of chunks.slice(0, -1)) res.write(part);
              chunk = chunks.at(-1)!;
            }
            if (!res.write(chunk)) controller.pause();
          },
          onResponseEnd(controller) {
            if (done) return;
            const exchange = (): PassedExchange => ({
              token,
              method,
              target,
              requestHeaders: req.headers,
              requestBody: requestCapture ? requestCapture.body() : EMPTY,
              status,
              responseHeaders,
              responseBody: responseCapture.body(),
              startedAt,
              endedAt: performance.now(),
            });
            if (held && options.judgeBeforeAnswer) {
              const chunks = held;
              let change: AnswerChange;
              try {
                change = options.judgeBeforeAnswer(exchange());
              } catch {
                // Judging failed (reported by the judge's own guard): the answer passes as it came.
                change = { addHeaders: {} };
              }
              if ("replace" in change) {
                const { replace } = change;
                try {
                  res.writeHead(replace.status, replace.headers);
                } catch {
                  return finish(() => res.destroy());
                }
                res.end(replace.body, () => finish(() => {}));
                return;
              }
              if (!writeHead(controller, change.addHeaders)) return;
              for (const part of chunks) res.write(part);
              res.end(() => finish(() => {}));
              return;
            }
            res.end(() => finish(() => options.onExchange(exchange())));
          },
          onResponseError(_controller, error) {
            if (done || res.destroyed) return finish(() => options.onClientGone?.({ token, method, target }));
            const reason = status === 0 ? describeUpstreamError(error) : `the answer (HTTP ${status}) broke off: ${describeUpstreamError(error)}`;
            finish(() => {
              // The app has its answer first, whatever the listener then does.
              if (!res.headersSent) badGateway(res, reason);
              else res.destroy();
              options.onUpstreamFailure({ token, method, target, reason, startedAt });
            });
          },
        },
      );
    });
  }

  // Set as close() begins: from then on each new request is answered at once, never forwarded (stoppingAnswer).
  let stopping = false;
  const server: Server = createServer((req, res) => {
    if (stopping) return stoppingAnswer(req, res);
    // A listener that throws before the exchange is under way (onRequest) is a failure of the proxy, as any other.
    const done = new Promise<void>((resolve) => resolve(forward(req, res))).catch((error: unknown) => {
      // A bug of ours must not take the app's request down with it: it gets an answer, and the failure is counted.
      options.onUpstreamFailure({ token: undefined, method: req.method ?? "GET", target: req.url ?? "/", reason: `the proxy failed: ${(error as Error).message}`, startedAt: performance.now() });
      if (!res.headersSent) badGateway(res, "the proxy failed while forwarding");
      else res.destroy();
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? "127.0.0.1";
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    async close(drainMs = DRAIN_MS, refuseUntil?: Promise<unknown>) {
      // Still listening, idle connections kept, while the exchanges in flight finish: a request that comes now gets
      // the 503 that says why, not a refused or reset connection.
      stopping = true;
      const drained = Promise.all(inFlight);
      let timer: NodeJS.Timeout | undefined;
      const cutSignal = new Promise<void>((resolve) => {
        cutAll = resolve;
        if (cutRequested) resolve();
        timer = setTimeout(resolve, drainMs);
      });
      const inTime = await Promise.race([drained.then(() => true), cutSignal.then(() => false)]);
      clearTimeout(timer);
      const cut = inTime ? 0 : inFlight.size;
      if (!inTime) {
        const seconds = Math.round(drainMs / 100) / 10;
        for (const cutOne of [...cutters]) cutOne(cutRequested ? "the proxy was stopped at once (a second Ctrl-C) before the upstream answered" : `the proxy stopped after waiting ${seconds} s for the upstream's answer`);
        // Each cut exchange answers its app at once; a socket that would not take it is closed after a second.
        const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000)));
        await Promise.race([drained, grace]);
        clearTimeout(timer);
        server.closeAllConnections();
        await drained;
      }
      const stopListening = () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Keep-alive connections of apps that sent nothing more: closed, so that close() ends.
        server.closeAllConnections();
        return closed;
      };
      if (refuseUntil) void refuseUntil.then(stopListening, stopListening);
      else await stopListening();
      await agent.close();
      return { cut };
    },
    cutNow() {
      cutRequested = true;
      cutAll?.();
    },
  };
}

/**
 * The answer to a request that came once the proxy was stopping (a Ctrl-C, the command ended): 503, saying so, and the
 * connection closed. It is not forwarded, nor judged: the run's traffic ended with the signal.
 */
function stoppingAnswer(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const body = JSON.stringify({ error: { code: "proxy_stopping", message: "The contract proxy is stopping (it was interrupted, or its command ended): it takes no new requests." } });
  res.writeHead(503, { "content-type": "application/json", "content-length": Buffer.byteLength(body), connection: "close", "x-contract-proxy": "stopping" });
  res.end(body);
}

/** What went wrong reaching the upstream, in a few words (undici's code, and its message). */
function describeUpstreamError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  const message = cause?.message ?? (error as Error).message;
  return code ? `${code}: ${message}` : message;
}
