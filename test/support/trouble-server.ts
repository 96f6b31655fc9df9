import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A local server that misbehaves by path prefix, reachable from web pages of any origin (CORS). */
export interface TroubleServer {
  /** `/flaky/<run>/...`: the first request of each run gets 503 (Retry-After: 0), later ones a file's metadata. */
  /** `/hang/...`: never answers. `/stall/...`: answers 200 and its headers, then never ends the body. */
  url: string;
  close(): Promise<void>;
}

const CORS = { "access-control-allow-origin": "*", "access-control-expose-headers": "x-request-id, retry-after" };

/** Starts the trouble server on a free port of 127.0.0.1. */
export async function troubleServer(): Promise<TroubleServer> {
  const flakyRuns = new Set<string>();
  const sockets = new Set<Socket>();
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { ...CORS, "content-type": "application/json", ...headers }).end(JSON.stringify(body));

  const server = createServer((req, res) => {
    req.resume();
    if (req.method === "OPTIONS") {
      return void res
        .writeHead(204, {
          ...CORS,
          "access-control-allow-methods": "GET, PUT",
          "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "",
        })
        .end();
    }
    const [, kind, run] = new URL(req.url ?? "/", "http://x").pathname.split("/");
    const fileId = decodeURIComponent(req.url!.split("/").pop()!);
    if (kind === "hang") return;
    if (kind === "stall")
      return void res.writeHead(200, { ...CORS, "content-type": "application/json" }).write('{"id":');
    if (kind === "flaky" && run && !flakyRuns.has(run)) {
      flakyRuns.add(run);
      return send(res, 503, { message: "try again" }, { "retry-after": "0" });
    }
    if (kind === "flaky")
      return send(res, 200, { id: fileId, name: "flaky.txt", size: 1, created_at: "2026-01-02T03:04:05Z", labels: [] });
    send(res, 404, { message: `no such trouble: ${req.url}` });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
