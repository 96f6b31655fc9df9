import { createRouter } from "../lib/openapi/router.ts";
import type { OpenApiDocument } from "../lib/openapi/spec-operations.ts";
import { emptyAnswer, jsonAnswer, type PlainAnswer, type PlainRequest, type Service } from "./core/plain.ts";
import { CONTENT_PATH_PREFIX } from "./core/signed-urls.ts";

/** Which web origins may call the sandbox from a browser: any (`*`), these, or none (CORS off). */
export type CorsOrigins = "*" | "none" | readonly string[];

// What the client reads from answers: a browser hides every other header from the page unless it is exposed.
const EXPOSED_HEADERS = "x-request-id, retry-after, retry-after-ms, x-should-retry";
// What the client sends beyond the headers browsers always allow; a page may add its own (they are echoed back).
const ALLOWED_HEADERS = ["authorization", "content-type", "accept"];
const MAX_AGE_SECONDS = 600;

/** Whether a request is a browser's preflight (OPTIONS with Origin and Access-Control-Request-Method). */
const isPreflight = (request: PlainRequest) =>
  request.method === "OPTIONS" &&
  request.headers.origin !== undefined &&
  request.headers["access-control-request-method"] !== undefined;

/**
 * The service answering browser apps on other origins: preflights of every route (the signed content URLs
 * included), and the CORS headers on every answer. With `none` it is the service unchanged.
 */
export function withCors(service: Service, origins: CorsOrigins, spec: { document: OpenApiDocument }): Service {
  if (origins === "none") return service;
  const route = createRouter(spec);
  const allowed = (origin: string | undefined) => origin !== undefined && (origins === "*" || origins.includes(origin));

  const decorate = (request: PlainRequest, answer: PlainAnswer): PlainAnswer => {
    const headers = { ...answer.headers };
    // With a list, the answer depends on the request's origin: caches must keep one per origin.
    if (origins !== "*") headers.vary = "origin";
    if (allowed(request.headers.origin)) {
      headers["access-control-allow-origin"] = origins === "*" ? "*" : request.headers.origin!;
      headers["access-control-expose-headers"] = EXPOSED_HEADERS;
    }
    return { ...answer, headers };
  };

  const preflight = (request: PlainRequest, methods: readonly string[]): PlainAnswer => {
    const origin = request.headers.origin!;
    if (!allowed(origin)) {
      return jsonAnswer(403, {
        code: "origin_not_allowed",
        message: `The origin ${origin} may not call this sandbox: start it with --cors-origin ${origin}.`,
      });
    }
    const requested = (request.headers["access-control-request-headers"] ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean);
    return emptyAnswer(204, {
      "access-control-allow-methods": [...methods, "OPTIONS"].join(", "),
      "access-control-allow-headers": [...new Set([...ALLOWED_HEADERS, ...requested])].join(", "),
      "access-control-max-age": String(MAX_AGE_SECONDS),
    });
  };

  return (request) => {
    if (isPreflight(request)) {
      const path = request.target.split("?")[0]!;
      const methods = path.startsWith(CONTENT_PATH_PREFIX) ? ["GET", "HEAD"] : route(request.method, path)?.allow;
      if (methods) {
        const answer = preflight(request, methods);
        return Promise.resolve(
          decorate(request, { ...answer, headers: { ...answer.headers, "x-request-id": crypto.randomUUID() } }),
        );
      }
    }
    // A request from no page (no Origin) to a sandbox open to all gets the answer as it is: no copy of it, and (this
    // is no async function) no extra turn of the event loop.
    if (origins === "*" && request.headers.origin === undefined) return service(request);
    return service(request).then((answer) => decorate(request, answer));
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
      throw new Error(
        `--cors-origin takes a web origin such as http://localhost:5173 (scheme, host and port, no path), got ${JSON.stringify(value)}.`,
      );
    }
    return origin;
  });
}
