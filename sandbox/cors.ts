import type { IncomingMessage, ServerResponse } from "node:http";

/** Which web origins may call the sandbox from a browser: any (`*`), these, or none (CORS off). */
export type CorsOrigins = "*" | "none" | readonly string[];

// What the client reads from answers: a browser hides every other header from the page unless it is exposed.
const EXPOSED_HEADERS = "x-request-id, retry-after, retry-after-ms, x-should-retry";
// What the client sends beyond the headers browsers always allow; a page may add its own (they are echoed back).
const ALLOWED_HEADERS = ["authorization", "content-type", "accept"];
const MAX_AGE_SECONDS = 600;

/** The sandbox's CORS: headers on every answer, and the answer to a browser's preflight. */
export interface CorsPolicy {
  /** Sets the CORS headers of the answer to `req` (none when its origin is not allowed). */
  decorate(req: IncomingMessage, res: ServerResponse): void;
  /** Whether `req` is a browser's preflight (OPTIONS with Origin and Access-Control-Request-Method). */
  isPreflight(req: IncomingMessage): boolean;
  /** Answers a preflight for a route with these methods: 204, or 403 when the origin is not allowed. */
  answerPreflight(req: IncomingMessage, res: ServerResponse, methods: readonly string[]): void;
}

/** The policy for `origins`, or undefined when CORS is off (`none`): the sandbox then answers as if no browser existed. */
export function corsPolicy(origins: CorsOrigins): CorsPolicy | undefined {
  if (origins === "none") return undefined;
  const allowed = (origin: string | undefined) => origin !== undefined && (origins === "*" || origins.includes(origin));
  return {
    decorate(req, res) {
      // With a list, the answer depends on the request's origin: caches must keep one per origin.
      if (origins !== "*") res.setHeader("vary", "origin");
      if (!allowed(req.headers.origin)) return;
      res.setHeader("access-control-allow-origin", origins === "*" ? "*" : req.headers.origin!);
      res.setHeader("access-control-expose-headers", EXPOSED_HEADERS);
    },
    isPreflight: (req) => req.method === "OPTIONS" && req.headers.origin !== undefined && req.headers["access-control-request-method"] !== undefined,
    answerPreflight(req, res, methods) {
      if (!allowed(req.headers.origin)) {
        const message = `The origin ${req.headers.origin} may not call this sandbox: start it with --cors-origin ${req.headers.origin}.`;
        res.writeHead(403, { "content-type": "application/json" });
        res.end(JSON.stringify({ code: "origin_not_allowed", message }));
        return;
      }
      const requested = (req.headers["access-control-request-headers"] ?? "").split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
      res.writeHead(204, {
        "access-control-allow-methods": [...methods, "OPTIONS"].join(", "),
        "access-control-allow-headers": [...new Set([...ALLOWED_HEADERS, ...requested])].join(", "),
        "access-control-max-age": String(MAX_AGE_SECONDS),
      });
      res.end();
    },
  };
}

/** Reads `--cors-origin` values: `none` alone, else web origins (scheme://host[:port]) or `*`; throws on anything else. */
export function parseCorsOrigins(values: readonly string[]): CorsOrigins {
  if (values.length === 0 || values.includes("*")) return "*";
  if (values.includes("none")) {
    if (values.length > 1) throw new Error("--cors-origin none turns CORS off: give it alone.");
    return "none";
  }
  return values.map((value) => {
    let origin: string | undefined;
    try {
      origin = new URL(value).origin;
    } catch {
      origin = undefined;
    }
    if (origin === undefined || origin === "null" || origin !== value.replace(/\/$/, "")) {
      throw new Error(`--cors-origin takes a web origin such as http://localhost:5173 (scheme, host and port, no path), got ${JSON.stringify(value)}.`);
    }
    return origin;
  });
}
