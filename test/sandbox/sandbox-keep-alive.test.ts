// covers: sandbox/keep-alive.ts
import { afterEach, describe, expect, it } from "vitest";
import { Agent, createServer, request, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_KEEP_ALIVE, keepIdleConnectionsLonger } from "../../sandbox/keep-alive.ts";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

/** A server answering with `answer`, under the keep-alive policy; resolves with its URL and the policy's shutdown switch. */
async function serve(answer: (res: ServerResponse) => void) {
  server = createServer((_req, res) => answer(res));
  const stopKeepingAlive = keepIdleConnectionsLonger(server);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, stopKeepingAlive };
}

/** The headers of the answer to a GET, sent as a client that keeps connections alive sends it. */
const headersOf = (url: string, headers: Record<string, string> = {}) =>
  new Promise<IncomingHttpHeaders>((resolve, reject) => {
    const agent = new Agent({ keepAlive: true });
    const req = request(
      url,
      { headers, agent },
      (res) => (res.resume(), res.once("end", () => agent.destroy()), resolve(res.headers)),
    );
    req.on("error", reject);
    req.end();
  });

describe("the sandbox's kept-alive connections", () => {
  it("advertises 60 s and keeps an idle connection 5 s longer, so a client honouring the header never meets a closed one", async () => {
    const { url } = await serve((res) => res.end("ok"));
    expect(DEFAULT_KEEP_ALIVE).toEqual({ advertisedSeconds: 60, keptMs: 65_000 });
    expect(server!.keepAliveTimeout).toBe(65_000);
    const headers = await headersOf(url);
    expect(headers.connection).toBe("keep-alive");
    expect(headers["keep-alive"]).toBe("timeout=60");
  });

  it("sends no Keep-Alive header on an answer that closes its connection", async () => {
    const { url } = await serve((res) => res.end("ok"));
    const headers = await headersOf(url, { connection: "close" });
    expect(headers.connection).toBe("close");
    expect(headers["keep-alive"]).toBeUndefined();
  });

  it("once shutting down, closes the connection of an answer still in flight, instead of keeping it idle", async () => {
    let answer: (() => void) | undefined;
    const { url, stopKeepingAlive } = await serve((res) => (answer = () => res.end("late")));
    const headers = headersOf(url);
    while (!answer) await new Promise((resolve) => setImmediate(resolve));
    stopKeepingAlive();
    answer();
    expect((await headers).connection).toBe("close");
    expect((await headers)["keep-alive"]).toBeUndefined();
  });
});
