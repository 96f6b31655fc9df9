import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

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
    if (answered++ === 0) {
      const forwarded = request(
        `${upstream}${req.url}`,
        { method: req.method, headers: req.headers, agent: false },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      forwarded.on("error", () => res.destroy());
      return void req.pipe(forwarded);
    }
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
