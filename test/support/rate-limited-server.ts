import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A server that answers every request 429 with this Retry-After, as an overloaded gateway. */
export async function alwaysRateLimited(retryAfter: string): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(429, { "content-type": "application/json", "retry-after": retryAfter, "x-request-id": "rl-1" });
    res.end(JSON.stringify({ code: "rate_limited", message: "Slow down." }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
