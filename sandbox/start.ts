import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { portInUse } from "../lib/command-line.ts";
import { loadBundledSpec } from "../lib/openapi/load.ts";
import { createFileLibraryService } from "./core/service.ts";
import { MemoryStorage } from "./core/memory-storage.ts";
import { UrlSigner } from "./core/signed-urls.ts";
import type { FileStorage } from "./core/storage.ts";
import type { Wrapper } from "./fault-layer.ts";
import { demoFixtures, loadFixtures, toStoredFiles } from "./fixtures.ts";
import { nodeHmac } from "./node-hmac.ts";
import { nodeRequestListener, originOf } from "./node-adapter.ts";
import { lineWriter } from "./line-writer.ts";
import { withCors, type CorsOrigins } from "./cors.ts";
import { DEFAULT_KEEP_ALIVE, keepIdleConnectionsLonger, type KeepAlivePolicy } from "./keep-alive.ts";

/** How to start a sandbox; only the key is required. */
export interface SandboxConfig {
  apiKey: string;
  host?: string;
  /** 0 (the default) lets the OS pick a free port. */
  port?: number;
  /** A SQLite file; in memory when absent. */
  dataFile?: string | undefined;
  /** A fixtures JSON file loaded before listening. */
  fixturesFile?: string | undefined;
  /** How long signed download URLs stay valid (default 15 minutes). */
  urlTtlSeconds?: number;
  /** Bodies over this many bytes get 413 (default 1 MiB). */
  maxBodyBytes?: number;
  /** The HMAC secret of signed URLs; random per start when absent. */
  secret?: string | undefined;
  /**
   * Wraps the service (inside CORS): a fault or a variant for tests of contract checkers, made by `variation` of
   * `file-library-sandbox/testing`. Called once per start.
   */
  wrap?: Wrapper | undefined;
  /** Web origins whose pages may call the sandbox (CORS): `*` (the default), a list, or `none`. */
  corsOrigins?: CorsOrigins;
  /** How long idle connections stay open (default: advertised 60 s, kept 5 s longer). */
  keepAlive?: KeepAlivePolicy | undefined;
  /** The spec requests are validated with (default: dist/openapi.json). */
  specFile?: string;
  log?: (line: string) => void;
}

/** A sandbox that listens. */
export interface RunningSandbox {
  baseUrl: string;
  /** Ids of the demo files, when a new database got them. */
  demoFileIds: string[];
  fileCount: number;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  close(): Promise<void>;
}

const GRACE_MS = 5_000;
/** The bundled spec of the kit's repo, which `npm run build:spec` writes. */
const REPO_SPEC = fileURLToPath(new URL("../dist/openapi.json", import.meta.url));

/** Opens the store, loads fixtures (or demo files into a new database) and listens. */
export async function startSandbox(config: SandboxConfig): Promise<RunningSandbox> {
  if (!config.apiKey?.trim())
    throw new Error("FILE_LIBRARY_API_KEY is not set: the sandbox needs the key its clients will send.");
  const spec = loadBundledSpec(config.specFile ?? REPO_SPEC, "run `npm run build:spec` first.");
  const storage: FileStorage = config.dataFile ? await openDataFile(config.dataFile) : new MemoryStorage();
  let demoFileIds: string[] = [];
  let service;
  try {
    if (config.fixturesFile) storage.put(loadFixtures(config.fixturesFile));
    else if (storage.count() === 0) {
      storage.put(toStoredFiles(demoFixtures));
      demoFileIds = demoFixtures.map((f) => f.id);
    }
    const signer = new UrlSigner(
      nodeHmac(config.secret ? Buffer.from(config.secret, "utf8") : randomBytes(32)),
      config.urlTtlSeconds ?? 15 * 60,
    );
    // The reference implementation, then the wrapper a test asked for (a fault, a variant), then CORS: each wraps the one inside.
    const core = createFileLibraryService({ apiKey: config.apiKey, storage, signer, spec });
    const wrapped = config.wrap ? config.wrap(core, { apiKey: config.apiKey, spec }) : core;
    service = withCors(wrapped, config.corsOrigins ?? "*", spec);
  } catch (error) {
    storage.close();
    throw error;
  }
  const log = config.log ?? lineWriter();
  const server = createServer(
    nodeRequestListener(service, { maxBodyBytes: config.maxBodyBytes ?? 1024 * 1024, log, apiKey: config.apiKey }),
  );
  const stopKeepingAlive = keepIdleConnectionsLonger(server, config.keepAlive ?? DEFAULT_KEEP_ALIVE);
  await listen(server, config.port ?? 0, config.host ?? "127.0.0.1").catch((error: unknown) => {
    storage.close();
    throw error;
  });
  let closing: Promise<void> | undefined;
  return {
    baseUrl: originOf(server.address() as AddressInfo),
    demoFileIds,
    fileCount: storage.count(),
    close: () =>
      (closing ??= shutDown(server, storage, stopKeepingAlive).finally(() =>
        (log as { flush?: () => void }).flush?.(),
      )),
  };
}

/**
 * SQLite storage on `file`. better-sqlite3 is loaded only here: its package ships prebuilt binaries for the common
 * platforms only, and where none loads the sandbox still runs in memory.
 */
async function openDataFile(file: string): Promise<FileStorage> {
  // better-sqlite3 13 is a Node-API 10 addon: on an older Node (before 22.14) it loads, then the process crashes on
  // its first database.
  if (Number(process.versions.napi) < 10) {
    throw new Error(
      `--data needs Node 22.14 or later (this is Node ${process.version}): use a newer Node, or leave out --data to keep the files in memory.`,
    );
  }
  let sqlite: typeof import("./sqlite-storage.ts");
  try {
    sqlite = await import("./sqlite-storage.ts");
  } catch (error) {
    throw new Error(
      `--data needs better-sqlite3, which could not be loaded (${(error as Error).message.split("\n")[0]}): npm install better-sqlite3, or leave out --data to keep the files in memory.`,
    );
  }
  return new sqlite.SqliteStorage(file);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new Error(portInUse(port, host)) : error),
    );
    server.listen(port, host, () => resolve());
  });
}

async function shutDown(server: Server, storage: FileStorage, stopKeepingAlive: () => void): Promise<void> {
  stopKeepingAlive();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), GRACE_MS);
  await closed;
  clearTimeout(timer);
  storage.close();
}
