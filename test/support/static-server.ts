import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import path from "node:path";

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript" };

/** Serves the files at the top of a folder on 127.0.0.1 at a free port: a web app's own origin. */
export async function serveFolder(folder: string): Promise<Server> {
  const server = createServer((req, res) => {
    const file = path.join(folder, path.basename(new URL(req.url ?? "/", "http://x").pathname) || "index.html");
    readFile(file).then(
      (body) =>
        res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}
