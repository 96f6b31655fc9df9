import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { createGzip } from "node:zlib";

const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/** An endless body, written as fast as the client reads it, until it hangs up. */
function endless(head: Buffer = Buffer.alloc(0)): Readable {
  let first = true;
  return new Readable({
    read() {
      this.push(first ? Buffer.concat([head, CHUNK]) : CHUNK);
      first = false;
    },
  });
}

/** A server that answers every request under a path prefix with a body without end. */
export interface HostileServer {
  /**
   * `${origin}/huge-body`: 200 JSON without end; `/gzip-bomb`: the same, gzip-compressed as it is read (it inflates
   * without end); `/huge-422`: a 422 JSON body without end; `/huge-url`: a 200 text/plain "URL" without end. Any path
   * ending in `/warm` gets a small, valid metadata body.
   */
  origin: string;
  close(): Promise<void>;
}

/** Starts the hostile server on a free port of 127.0.0.1. */
export async function hostileServer(): Promise<HostileServer> {
  const server: Server = createServer((req, res: ServerResponse) => {
    req.resume();
    if (req.url!.endsWith("/warm")) {
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end('{"id":"warm","name":"w","size":1,"created_at":"2026-01-01T00:00:00Z","labels":[]}');
    }
    const send = (status: number, type: string, body: Readable, encoding?: string) => {
      res.writeHead(status, { "content-type": type, ...(encoding && { "content-encoding": encoding }) });
      body.pipe(res);
      res.once("close", () => body.destroy());
    };
    const kind = req.url!.split("/")[1];
    // Zeros by the gigabyte, compressed as the client asks for them: 10 MB that inflates to 10 GB, and more.
    if (kind === "gzip-bomb") return send(200, "application/json", endless().pipe(createGzip()), "gzip");
    if (kind === "huge-422") return send(422, "application/json", endless(Buffer.from('{"message":"')));
    if (kind === "huge-url") return send(200, "text/plain", endless(Buffer.from("https://cdn.example.test/")));
    send(200, "application/json", endless(Buffer.from('{"name":"')));
  });
  return onLoopback(server);
}

/** Starts `server` on a free port of 127.0.0.1: its origin, and a close that also ends the connections it holds. */
export async function onLoopback(server: Server): Promise<HostileServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
