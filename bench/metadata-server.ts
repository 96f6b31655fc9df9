/** A bare node:http server that answers every request with the same metadata JSON: the baseline of the benchmarks. */
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

const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`bare metadata server listening at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
server.on("close", () => server.closeAllConnections());
