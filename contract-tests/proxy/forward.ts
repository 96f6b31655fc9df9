import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import type { Dispatcher } from "undici";
import { DRAIN_MS } from "./drain.ts";

/** Headers of one connection only (RFC 9110 §7.6.1): never forwarded, in either direction. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

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
export type AnswerChange =
  | { addHeaders: Record<string, string> }
  | { replace: { status: number; headers: Record<string, string>; body: string } };

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
  /** Called for each request refused because the proxy is stopping (answered 503, forwarded nowhere). */
  onRefused?: ((request: { method: string; target: string; headers: IncomingHttpHeaders }) => void) | undefined;
}

/** The forwarding server. */
export interface Forwarding {
  url: string;
  /**
   * Stops taking requests (each new one is answered 503, saying the proxy is stopping), waits for the exchanges in
   * flight for at most `drainMs`, cuts those still in flight then (each app gets a 502 that says so, or its connection
   * closed if its answer had begun), then stops listening and closes the upstream connections. Resolves with how many
   * exchanges were cut. With `refuseUntil` (a command that still runs), it goes on answering 503 until that settles,
   * and stops listening then; it resolves without waiting for it, and `closed` resolves once it no longer listens
   * (so that no request is refused after it).
   */
  close(drainMs?: number, refuseUntil?: Promise<unknown>): Promise<{ cut: number; closed: Promise<void> }>;
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
      const part =
        chunk.length + this.keptBytes > this.limit + 1 ? chunk.subarray(0, this.limit + 1 - this.keptBytes) : chunk;
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
    if (raw[i]!.toLowerCase() === "connection")
      for (const token of raw[i + 1]!.split(",")) named.add(token.trim().toLowerCase());
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
  for (const token of (Array.isArray(connection) ? connection.join(",") : (connection ?? "")).split(","))
    named.add(token.trim().toLowerCase());
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !named.has(name)) out[name] = value;
  return out;
}

/** A JSON answer of the proxy's own, for what the upstream could not answer; a socket that cannot take one is closed. */
function badGateway(res: ServerResponse, reason: string): void {
  const body = JSON.stringify({
    error: { code: "upstream_unreachable", message: `The contract proxy could not reach the upstream: ${reason}.` },
  });
  try {
    res.writeHead(502, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "x-contract-proxy": "upstream-unreachable",
    });
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
function forwardInterim(
  res: ServerResponse,
  statusCode: number,
  headers: Record<string, string | string[] | undefined>,
): boolean {
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
  // Loaded when a proxy starts, not when the package is imported: a program that only runs the suite never needs it.
  const { Agent } = await import("undici");
  const proxy = new ForwardingServer(options, upstreamUrl, new Agent({ keepAliveTimeout: 4_000 }));
  const url = await proxy.listen();
  return { url, close: (drainMs, refuseUntil) => proxy.close(drainMs, refuseUntil), cutNow: () => proxy.cutNow() };
}

/** What every exchange of one forwarding server shares. */
interface Upstream {
  options: ForwardOptions;
  agent: Dispatcher;
  origin: string;
  /** The upstream's own path prefix, if any, goes before each target (a base URL such as https://host/api). */
  prefix: string;
  /** How to cut each exchange in flight: its upstream request is aborted with the reason, and the app is answered. */
  cutters: Set<(reason: string) => void>;
}

/** The listening server: takes each request, forwards it, and stops in bounded time (Forwarding.close). */
class ForwardingServer {
  private readonly upstream: Upstream;
  private readonly server: Server;
  private readonly inFlight = new Set<Promise<void>>();
  private cutAll: (() => void) | undefined;
  private cutRequested = false;
  // Set as close() begins: from then on each new request is answered at once, never forwarded (stoppingAnswer).
  private stopping = false;

  constructor(
    private readonly options: ForwardOptions,
    upstreamUrl: URL,
    private readonly agent: Dispatcher & { close(): Promise<void> },
  ) {
    const prefix = upstreamUrl.pathname.replace(/\/+$/, "");
    this.upstream = { options, agent, origin: upstreamUrl.origin, prefix, cutters: new Set() };
    this.server = createServer((req, res) => this.take(req, res));
  }

  /** Listens on the options' host and port; resolves with the proxy's URL. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.options.port ?? 0, this.options.host ?? "127.0.0.1", () => resolve());
    });
    const { port } = this.server.address() as AddressInfo;
    const host = this.options.host ?? "127.0.0.1";
    return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  }

  private take(req: IncomingMessage, res: ServerResponse): void {
    if (this.stopping) return this.refuse(req, res);
    // A listener that throws before the exchange is under way (onRequest) is a failure of the proxy, as any other.
    const done = new Promise<void>((resolve) => resolve(forward(this.upstream, req, res))).catch((error: unknown) => {
      // A bug of ours must not take the app's request down with it: it gets an answer, and the failure is counted.
      this.options.onUpstreamFailure({
        token: undefined,
        method: req.method ?? "GET",
        target: req.url ?? "/",
        reason: `the proxy failed: ${(error as Error).message}`,
        startedAt: performance.now(),
      });
      answerFailure(res, "the proxy failed while forwarding");
    });
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done));
  }

  /** A request that came while stopping: told to onRefused (a listener that throws must not cost the 503), answered 503. */
  private refuse(req: IncomingMessage, res: ServerResponse): void {
    try {
      this.options.onRefused?.({ method: req.method ?? "GET", target: req.url ?? "/", headers: req.headers });
    } catch {
      // Thrown in a request listener, it would take the process down; the app gets its 503 whatever the count does.
    }
    stoppingAnswer(req, res);
  }

  /** Forwarding.close: drains, cuts what is left after `drainMs`, stops listening (after `refuseUntil`, if given). */
  async close(drainMs = DRAIN_MS, refuseUntil?: Promise<unknown>): Promise<{ cut: number; closed: Promise<void> }> {
    // Still listening, idle connections kept, while the exchanges in flight finish: a request that comes now gets
    // the 503 that says why, not a refused or reset connection.
    this.stopping = true;
    const drained = Promise.all(this.inFlight);
    const inTime = await this.drainedInTime(drained, drainMs);
    const cut = inTime ? 0 : this.inFlight.size;
    if (!inTime) await this.cutInFlight(drained, drainMs);
    const stopListening = () => this.stopListening();
    const closed = refuseUntil ? refuseUntil.then(stopListening, stopListening) : stopListening();
    if (!refuseUntil) await closed;
    await this.agent.close();
    return { cut, closed };
  }

  /** Forwarding.cutNow. */
  cutNow(): void {
    this.cutRequested = true;
    this.cutAll?.();
  }

  /** Whether the exchanges in flight all ended within `drainMs`, and before a cutNow(). */
  private async drainedInTime(drained: Promise<unknown>, drainMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const cutSignal = new Promise<void>((resolve) => {
      this.cutAll = resolve;
      if (this.cutRequested) resolve();
      timer = setTimeout(resolve, drainMs);
    });
    const inTime = await Promise.race([drained.then(() => true), cutSignal.then(() => false)]);
    clearTimeout(timer);
    return inTime;
  }

  /** Cuts every exchange still in flight, saying why, and waits for them to end (closing sockets that will not). */
  private async cutInFlight(drained: Promise<unknown>, drainMs: number): Promise<void> {
    const seconds = Math.round(drainMs / 100) / 10;
    const reason = this.cutRequested
      ? "the proxy was stopped at once (a second Ctrl-C) before the upstream answered"
      : `the proxy stopped after waiting ${seconds} s for the upstream's answer`;
    for (const cutOne of [...this.upstream.cutters]) cutOne(reason);
    // Each cut exchange answers its app at once; a socket that would not take it is closed after a second.
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1_000)));
    await Promise.race([drained, grace]);
    clearTimeout(timer);
    this.server.closeAllConnections();
    await drained;
  }

  private stopListening(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Keep-alive connections of apps that sent nothing more: closed, so that close() ends.
    this.server.closeAllConnections();
    return closed;
  }
}

/** Forwards one exchange; resolves when it has ended, whatever its outcome. */
function forward(upstream: Upstream, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const startedAt = performance.now();
  const method = req.method ?? "GET";
  const target = req.url ?? "/";
  const token = upstream.options.onRequest?.({ method, target, startedAt });
  const hasBody =
    req.headers["content-length"] !== undefined
      ? req.headers["content-length"] !== "0"
      : req.headers["transfer-encoding"] !== undefined;
  const requestCapture = hasBody ? new Capture(upstream.options.captureBytes) : undefined;
  const requestBody = requestCapture ? passRequestBody(req, requestCapture) : undefined;
  if (!requestCapture) req.resume();
  const request = { token, method, target, startedAt, requestCapture };
  return new Promise<void>((settle) => new Exchange(upstream, req, res, request, settle).dispatch(requestBody));
}

/** The request's body as a stream for the upstream, kept in part on the way; the app is paused while the upstream is slower. */
function passRequestBody(req: IncomingMessage, capture: Capture): PassThrough {
  const body = new PassThrough();
  req.on("data", (chunk: Buffer) => {
    capture.add(chunk);
    if (!body.write(chunk)) req.pause();
  });
  body.on("drain", () => req.resume());
  req.on("end", () => body.end());
  req.on("error", (error) => body.destroy(error));
  return body;
}

/** The proxy's 502 saying why, or the socket closed if the answer had begun. */
function answerFailure(res: ServerResponse, reason: string): void {
  if (!res.headersSent) badGateway(res, reason);
  else res.destroy();
}

/** What is known of a request when its exchange begins. */
interface ArrivedRequest {
  token: unknown;
  method: string;
  target: string;
  startedAt: number;
  requestCapture: Capture | undefined;
}

/**
 * One exchange in flight, forwarded with undici's dispatch API: the answer's chunks go straight to the app's socket,
 * paused when it is full and resumed when it drains; no stream object, no AbortController per request (the bench's
 * hot path).
 */
class Exchange {
  private status = 0;
  private responseHeaders: Record<string, string | string[] | undefined> = {};
  private controller: Dispatcher.DispatchController | undefined;
  private done = false;
  private phrase: string | undefined;
  private readonly responseCapture: Capture;
  // The answer's chunks while it is held to be judged first (opt-in); undefined once it is passed on as it comes.
  private held: Buffer[] | undefined;
  private heldBytes = 0;
  private readonly cut = (reason: string) => this.cutOff(reason);

  constructor(
    private readonly upstream: Upstream,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly request: ArrivedRequest,
    private readonly settle: () => void,
  ) {
    this.responseCapture = new Capture(upstream.options.captureBytes);
    this.held = upstream.options.judgeBeforeAnswer ? [] : undefined;
  }

  /** Sends the request on to the upstream, and wires the app's socket to the exchange's end. */
  dispatch(body: PassThrough | undefined): void {
    const { req, res, upstream, request } = this;
    res.on("close", () => this.appGone());
    upstream.cutters.add(this.cut);
    res.once("close", () => upstream.cutters.delete(this.cut));
    res.on("drain", () => this.controller?.resume());
    upstream.agent.dispatch(
      {
        origin: upstream.origin,
        path: `${upstream.prefix}${request.target}`,
        method: request.method as Dispatcher.HttpMethod,
        headers: forwardedHeaders(req.rawHeaders),
        body: body ?? null,
      },
      {
        onRequestStart: (controller) => {
          this.controller = controller;
        },
        onResponseStart: (controller, statusCode, headers, statusMessage) =>
          this.responseStarted(controller, statusCode, headers, statusMessage),
        onResponseData: (controller, chunk) => this.responseData(controller, chunk),
        onResponseEnd: (controller) => this.responseEnded(controller),
        onResponseError: (_controller, error) => this.responseFailed(error),
      },
    );
  }

  /** Every exchange ends, whatever its outcome throws: the in-flight set, and so stop(), never wait on it forever. */
  private finish(outcome: () => void): void {
    if (this.done) return;
    this.done = true;
    try {
      outcome();
    } finally {
      this.settle();
    }
  }

  /** Tells the failure, then answers the app with it. */
  private fail(reason: string): void {
    const { token, method, target, startedAt } = this.request;
    this.finish(() => {
      this.upstream.options.onUpstreamFailure({ token, method, target, reason, startedAt });
      answerFailure(this.res, reason);
    });
  }

  private appGone(): void {
    if (this.res.writableFinished || this.done) return;
    this.controller?.abort(new Error("the app went away"));
    this.finish(() => this.tellClientGone());
  }

  private tellClientGone(): void {
    const { token, method, target } = this.request;
    this.upstream.options.onClientGone?.({ token, method, target });
  }

  private cutOff(reason: string): void {
    if (this.done) return;
    this.controller?.abort(new Error(reason));
    // The abort comes back through onResponseError; an exchange whose dispatch never started is ended here.
    if (!this.controller) this.fail(reason);
  }

  /** Writes the answer's head to the app, with headers added; a head node:http will not write ends the exchange with a 502. */
  private writeHead(controller: Dispatcher.DispatchController, added: Record<string, string>): boolean {
    try {
      // A phrase node:http cannot write (outside Latin-1, as undici decodes it) gives way to the status's own.
      const reason = reasonBytes(this.phrase);
      const headers = { ...answeredHeaders(this.responseHeaders), ...added };
      if (reason) this.res.writeHead(this.status, reason, headers);
      else this.res.writeHead(this.status, headers);
      return true;
    } catch (error) {
      // Headers node:http will not write: the exchange ends with the proxy's 502 saying why, never a hang.
      const reason = `the upstream's answer (HTTP ${this.status}) could not be passed on: ${(error as Error).message}`;
      controller.abort(new Error(reason));
      this.fail(reason);
      return false;
    }
  }

  private responseStarted(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
    statusMessage: string | undefined,
  ): void {
    if (forwardInterim(this.res, statusCode, headers)) return;
    this.status = statusCode;
    this.responseHeaders = headers;
    this.phrase = statusMessage;
    if (!this.held) this.writeHead(controller, {});
  }

  private responseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return;
    this.responseCapture.add(chunk);
    if (this.held) {
      const last = this.hold(controller, chunk);
      if (!last) return;
      chunk = last;
    }
    if (!this.res.write(chunk)) controller.pause();
  }

  /**
   * Holds a chunk of an answer to be judged first; undefined while it is held. Too long to hold: its head and the
   * chunks before are written, and the last chunk is returned to be passed on, as are all after it, judged after.
   */
  private hold(controller: Dispatcher.DispatchController, chunk: Buffer): Buffer | undefined {
    const held = this.held!;
    held.push(chunk);
    this.heldBytes += chunk.length;
    if (this.heldBytes <= this.upstream.options.captureBytes) return undefined;
    this.held = undefined;
    if (!this.writeHead(controller, {})) return undefined;
    for (const part of held.slice(0, -1)) this.res.write(part);
    return held.at(-1)!;
  }

  private responseEnded(controller: Dispatcher.DispatchController): void {
    if (this.done) return;
    if (this.held && this.upstream.options.judgeBeforeAnswer)
      return this.answerJudged(controller, this.held, this.upstream.options.judgeBeforeAnswer);
    this.res.end(() => this.finish(() => this.upstream.options.onExchange(this.passed())));
  }

  /** Passes on a held answer once judged: with the judge's headers added, or replaced by the judge's answer. */
  private answerJudged(
    controller: Dispatcher.DispatchController,
    chunks: Buffer[],
    judge: (exchange: PassedExchange) => AnswerChange,
  ): void {
    let change: AnswerChange;
    try {
      change = judge(this.passed());
    } catch {
      // Judging failed (reported by the judge's own guard): the answer passes as it came.
      change = { addHeaders: {} };
    }
    if ("replace" in change) {
      const { replace } = change;
      try {
        this.res.writeHead(replace.status, replace.headers);
      } catch {
        return this.finish(() => this.res.destroy());
      }
      this.res.end(replace.body, () => this.finish(() => {}));
      return;
    }
    if (!this.writeHead(controller, change.addHeaders)) return;
    for (const part of chunks) this.res.write(part);
    this.res.end(() => this.finish(() => {}));
  }

  private responseFailed(error: Error): void {
    if (this.done || this.res.destroyed) return this.finish(() => this.tellClientGone());
    const { token, method, target, startedAt } = this.request;
    const reason =
      this.status === 0
        ? describeUpstreamError(error)
        : `the answer (HTTP ${this.status}) broke off: ${describeUpstreamError(error)}`;
    this.finish(() => {
      // The app has its answer first, whatever the listener then does.
      answerFailure(this.res, reason);
      this.upstream.options.onUpstreamFailure({ token, method, target, reason, startedAt });
    });
  }

  /** The exchange as it passed, for the judges. */
  private passed(): PassedExchange {
    const { token, method, target, startedAt, requestCapture } = this.request;
    return {
      token,
      method,
      target,
      requestHeaders: this.req.headers,
      requestBody: requestCapture ? requestCapture.body() : EMPTY,
      status: this.status,
      responseHeaders: this.responseHeaders,
      responseBody: this.responseCapture.body(),
      startedAt,
      endedAt: performance.now(),
    };
  }
}

/**
 * The answer to a request that came once the proxy was stopping (a Ctrl-C, the command ended): 503, saying so, and the
 * connection closed. It is not forwarded, nor judged: the run's traffic ended with the signal.
 */
function stoppingAnswer(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const body = JSON.stringify({
    error: {
      code: "proxy_stopping",
      message: "The contract proxy is stopping (it was interrupted, or its command ended): it takes no new requests.",
    },
  });
  res.writeHead(503, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    connection: "close",
    "x-contract-proxy": "stopping",
  });
  res.end(body);
}

/** What went wrong reaching the upstream, in a few words (undici's code, and its message). */
function describeUpstreamError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code;
  const message = cause?.message ?? (error as Error).message;
  return code ? `${code}: ${message}` : message;
}
