/**
 * A bare node:http server: the baseline of the benchmarks. It answers a PUT with an empty 200 (the update), a path
 * ending in /download with a signed URL as text, and anything else with the same metadata JSON.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const body = JSON.stringify({
  id: "file_bench",
  name: "report.pdf",
  size: 482113,
  created_at: "2026-03-14T09:26:53Z",
  labels: ["finance", "q1"],
  publicUrl: "https://cdn.example.com/docs/report.pdf",
});

const signedUrl =
  "http://127.0.0.1:1/files/file_bench/content?expires=1900000000&signature=0123456789abcdef0123456789abcdef";

const server = createServer((req, res) => {
  req.resume();
  if (req.method === "PUT") {
    res.writeHead(200, { "content-length": 0 });
    res.end();
  } else if (req.url?.endsWith("/download")) {
    res.writeHead(200, { "content-type": "text/plain", "content-length": signedUrl.length });
    res.end(signedUrl);
  } else {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  }
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`bare metadata server listening at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
server.on("close", () => server.closeAllConnections());
