import { createServer, type Server, type Socket } from "node:net";

/** An upstream that answers each request with bytes of its own, below node:http (odd reason phrases, interim answers). */
export interface RawUpstream {
  origin: string;
  close(): Promise<void>;
}

/** Starts a raw upstream on a free port of 127.0.0.1 that calls `answer` once a request's head and body are in. */
export async function rawUpstream(answer: (socket: Socket) => void): Promise<RawUpstream> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    let seen = "";
    socket.on("data", (chunk: Buffer) => {
      seen += chunk.toString("latin1");
      const head = seen.indexOf("\r\n\r\n");
      if (head < 0) return;
      const length = Number(/content-length: *(\d+)/i.exec(seen.slice(0, head))?.[1] ?? 0);
      if (seen.length - head - 4 < length) return;
      seen = "";
      answer(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
