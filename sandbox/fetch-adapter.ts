import type { PlainAnswer, PlainRequest, Service } from "./core/plain.ts";

/** A fetch function, as apps and the client call it. */
export type FetchFunction = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/**
 * A WHATWG Request as the service takes it, or undefined when it is not under `baseUrl` (scheme, host and any path
 * prefix): the target is what follows the prefix, and signed URLs point back to `baseUrl`.
 */
export async function plainRequestOf(request: Request, baseUrl: string): Promise<PlainRequest | undefined> {
  const url = new URL(request.url);
  const path = `${url.origin}${url.pathname}`;
  if (!path.startsWith(`${baseUrl}/`)) return undefined;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => (headers[name] = value));
  const body = new Uint8Array(await request.arrayBuffer());
  return {
    method: request.method,
    target: `${path.slice(baseUrl.length)}${url.search}`,
    headers,
    body,
    origin: baseUrl,
    connectionRequests: 1,
  };
}

/** The answer as a WHATWG Response; a dropped connection is a rejected fetch, as a network failure is. */
export function toResponse(answer: PlainAnswer, method: string): Response {
  if (answer.drop) throw new TypeError("fetch failed", { cause: new Error("the connection was dropped (dropNext)") });
  const body = method === "HEAD" || answer.status === 204 || answer.status === 304 ? null : answer.body;
  return new Response(body as BodyInit | null, { status: answer.status, headers: answer.headers });
}

/** Serves `service` on `baseUrl` as a fetch function: each call goes in-process to the service, with no network and no port. */
export function fetchAdapter(service: Service, baseUrl: string): FetchFunction {
  return async (input, init) => {
    const request = new Request(input, init);
    const plain = await plainRequestOf(request, baseUrl);
    // As a fetch to an unknown host fails: loudly, and saying which URL the fake answers on.
    if (!plain) throw new TypeError(`fetch failed: this fake File Library answers on ${baseUrl}, not ${request.url}`);
    if (request.signal.aborted) throw request.signal.reason;
    const answer = await service(plain);
    if (request.signal.aborted) throw request.signal.reason;
    return toResponse(answer, request.method);
  };
}
