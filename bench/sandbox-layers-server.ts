/**
 * The sandbox built up one layer at a time, for `bench/sandbox-throughput.ts` to see where a request's time goes:
 * `--layers N` stacks the first N of LAYERS (bench/lib/sandbox-layers.ts). What each adds is measured against the one before.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadBundledSpec } from "../lib/openapi/load.ts";
import { jsonAnswer, type Service } from "../sandbox/core/plain.ts";
import { MemoryStorage } from "../sandbox/core/memory-storage.ts";
import { createFileLibraryService } from "../sandbox/core/service.ts";
import { UrlSigner } from "../sandbox/core/signed-urls.ts";
import type { FileStorage } from "../sandbox/core/storage.ts";
import { withCors } from "../sandbox/cors.ts";
import { loadFixtures } from "../sandbox/fixtures.ts";
import { lineWriter } from "../sandbox/line-writer.ts";
import { nodeHmac } from "../sandbox/node-hmac.ts";
import { nodeRequestListener } from "../sandbox/node-adapter.ts";
import { SqliteStorage } from "../sandbox/sqlite-storage.ts";
import { bundledSpec, fromRoot } from "../scripts/lib/paths.ts";

const depth = Number(process.argv[process.argv.indexOf("--layers") + 1]);
const key = process.env.FILE_LIBRARY_API_KEY ?? "bench-key";
const spec = loadBundledSpec(bundledSpec.json, "run `npm run build:spec` first.");
const files = loadFixtures(fromRoot("test/fixtures/sandbox-files.json"));

let storage: FileStorage = new MemoryStorage();
if (depth >= 3)
  storage = new SqliteStorage(path.join(mkdtempSync(path.join(os.tmpdir(), "file-library-bench-")), "files.db"));
storage.put(files);
const fixed = jsonAnswer(200, {
  id: "doc-1",
  name: "report.txt",
  size: 5,
  created_at: "2026-01-02T03:04:05.000Z",
  labels: ["a", "b"],
});
let service: Service = async () => fixed;
if (depth >= 2)
  service = createFileLibraryService({
    apiKey: key,
    storage,
    spec,
    signer: new UrlSigner(nodeHmac(new Uint8Array(32)), 900),
  });
if (depth >= 4) service = withCors(service, "*", spec);
const log = depth >= 5 ? lineWriter() : () => {};

const server = createServer(nodeRequestListener(service, { maxBodyBytes: 1024 * 1024, log }));
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  console.log(`layers server (${depth}) listening at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
server.on("close", () => server.closeAllConnections());
