import { request, type IncomingMessage, type ServerResponse } from "node:http";

/** Passes one request to `upstream` as it came, and its answer back as it came (a test server's way through). */
export function forwardRequest(upstream: string, req: IncomingMessage, res: ServerResponse): void {
  const forwarded = request(
    `${upstream}${req.url}`,
    { method: req.method, headers: req.headers, agent: false },
    (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    },
  );
  forwarded.on("error", () => res.destroy());
  req.pipe(forwarded);
}
