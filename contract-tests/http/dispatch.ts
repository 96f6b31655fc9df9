import { createRequire } from "node:module";
import { pipeline, Readable } from "node:stream";
import zlib from "node:zlib";
import type { Agent as AgentType, Dispatcher } from "undici";

const require = createRequire(import.meta.url);

// undici's Agent and request API alone: the whole package takes three times as long to load.
let Agent: typeof AgentType | undefined;
let request: ((this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>) | undefined;

/** A pool of connections of the run's own (undici's Agent); `options` as undici's. */
export function newAgent(options?: AgentType.Options): AgentType {
  Agent ??= require("undici/lib/dispatcher/agent.js") as typeof AgentType;
  return new Agent(options);
}

/** An answer as received: its status, headers, and body (decoded from its Content-Encoding), not yet read. */
export interface RawAnswer {
  status: number;
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
}

/** How to send one request: fetch's own words for what the suite uses of it. */
export interface DispatchInit {
  method: string;
  headers?: Record<string, string> | undefined;
  body?: string | null | undefined;
  signal?: AbortSignal | undefined;
  /** "manual" (the default) returns a 3xx as it came; "follow" follows up to 20 redirects, as fetch does. */
  redirect?: "manual" | "follow" | undefined;
  /** Asks the server to close the connection after its answer (`Connection: close`): it carries no later request. */
  closeConnection?: boolean | undefined;
}

// What fetch sends unless told otherwise: the answer judged is the one a fetch-based client gets.
const DEFAULT_HEADERS = { accept: "*/*", "accept-encoding": "gzip, deflate, br", "user-agent": "node" };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
// As fetch: more codings than this is an attack on the reader, not an answer.
const MAX_CODINGS = 5;

/**
 * Sends one request with undici's dispatch API, as fetch would (its default headers, its decoding of gzip, deflate and
 * br, its redirects when asked) but to any port: fetch refuses the Fetch standard's "bad ports" (6000, 10080, ...),
 * which a browser must and a contract suite must not (docs/decisions.md, D23).
 */
export async function dispatch(dispatcher: Dispatcher, url: string, init: DispatchInit): Promise<RawAnswer> {
  let target = new URL(url);
  let headers: Record<string, string> = { ...DEFAULT_HEADERS, ...init.headers };
  for (let redirects = 0; ; redirects++) {
    const answer = await sendOnce(dispatcher, target, { ...init, headers });
    const location = answer.headers["location"];
    if (init.redirect !== "follow" || !REDIRECTS.has(answer.statusCode) || typeof location !== "string")
      return decoded(init.method, answer);
    await answer.body.dump().catch(() => {});
    if (redirects === MAX_REDIRECTS)
      throw new TypeError("fetch failed", { cause: new Error("redirect count exceeded") });
    const next = new URL(location, target);
    // As fetch: the credentials stay with the origin they were meant for.
    if (next.origin !== target.origin)
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== "authorization"));
    target = next;
  }
}

function sendOnce(dispatcher: Dispatcher, url: URL, init: DispatchInit): Promise<Dispatcher.ResponseData> {
  request ??= require("undici/lib/api/api-request.js") as typeof request;
  return request!.call(dispatcher, {
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: init.method as Dispatcher.HttpMethod,
    headers: init.headers ?? {},
    body: init.body ?? null,
    signal: init.signal,
    ...(init.closeConnection ? { reset: true } : {}),
  });
}

/** The answer with its headers as Headers, its body decoded as fetch decodes it. */
function decoded(method: string, answer: Dispatcher.ResponseData): RawAnswer {
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : [value ?? ""]) {
      try {
        headers.append(name, one);
      } catch {
        // A value Headers refuses (a control character): left out, as fetch's own parser would not hand it on either.
      }
    }
  }
  const status = answer.statusCode;
  const noBody = method === "HEAD" || status === 204 || status === 304;
  const codings = (headers.get("content-encoding") ?? "")
    .toLowerCase()
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean);
  if (codings.length > MAX_CODINGS) {
    answer.body.on("error", () => {}).destroy();
    throw new TypeError("fetch failed", {
      cause: new Error(`too many content-encodings in response: ${codings.length}, maximum allowed is ${MAX_CODINGS}`),
    });
  }
  const decoders = noBody ? [] : decodersFor(codings);
  const body: Readable =
    decoders.length > 0 ? (pipeline([answer.body, ...decoders], () => {}) as unknown as Readable) : answer.body;
  return {
    status,
    headers,
    body: noBody ? (answer.body.dump().catch(() => {}), null) : (Readable.toWeb(body) as ReadableStream<Uint8Array>),
  };
}

/** The decoders of the codings, last applied first; none when one is unknown (the body is then read as it came, as fetch does). */
function decodersFor(codings: string[]): NodeJS.ReadWriteStream[] {
  const decoders: NodeJS.ReadWriteStream[] = [];
  // Lenient flushing, as fetch and curl: servers send slightly truncated streams that browsers accept.
  const sync = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  for (const coding of [...codings].reverse()) {
    if (coding === "gzip" || coding === "x-gzip") decoders.push(zlib.createGunzip(sync));
    else if (coding === "deflate") decoders.push(zlib.createInflate(sync));
    else if (coding === "br")
      decoders.push(
        zlib.createBrotliDecompress({
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        }),
      );
    else return [];
  }
  return decoders;
}
