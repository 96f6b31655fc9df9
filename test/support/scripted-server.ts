import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What the server does with one request. */
export type Step =
  | { status: number; headers?: Record<string, string>; body?: string }
  /** Closes the connection without an answer. */
  | "reset"
  /** Never answers (until the server closes). */
  | "hang"
  /** Sends a 200's head and the start of its body, then nothing more (until the server closes). */
  | "stall";

/** A local server on port 0 that answers request N with step N of its script. */
export interface ScriptedServer {
  baseUrl: string;
  /** Requests seen so far, in order. */
  requests: IncomingMessage[];
  close(): Promise<void>;
}

/** Starts a scripted server; a request past the end of the script gets a 599 that names the overrun. */
export async function scriptedServer(...script: Step[]): Promise<ScriptedServer> {
  const requests: IncomingMessage[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    requests.push(req);
    const step = script[requests.length - 1] ?? { status: 599, body: `script overrun: request ${requests.length}` };
    req.resume();
    if (step === "reset") return void req.socket.destroy();
    if (step === "hang") return;
    if (step === "stall") return void res.writeHead(200, { "content-type": "application/json" }).write('{"id":');
    res.writeHead(step.status, { "content-type": "application/json", ...step.headers });
    res.end(step.body ?? "");
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A step that answers with JSON. */
export const reply = (status: number, body: unknown = {}, headers: Record<string, string> = {}): Step => ({
  status,
  headers,
  body: JSON.stringify(body),
});
