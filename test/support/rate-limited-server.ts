import { createServer, type Server } from "node:http";
import { forwardRequest } from "./forward-request.ts";
import { onLoopback } from "./hostile-server.ts";

/**
 * A server that answers every request 429 with this Retry-After, as an overloaded gateway, but the first: the run's
 * start-up read, forwarded to `upstream`, so that the run gets to its checks (a 429 to the start-up read past a cap
 * stops the run before them: contract-first-rate-limited.test.ts).
 */
export async function alwaysRateLimited(
  retryAfter: string,
  upstream: string,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  let answered = 0;
  const server: Server = createServer((req, res) => {
    if (answered++ === 0) return forwardRequest(upstream, req, res);
    req.resume();
    res.writeHead(429, { "content-type": "application/json", "retry-after": retryAfter, "x-request-id": "rl-1" });
    res.end(JSON.stringify({ code: "rate_limited", message: "Slow down." }));
  });
  const { origin, close } = await onLoopback(server);
  return { baseUrl: origin, close };
}
