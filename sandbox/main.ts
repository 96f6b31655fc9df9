/** `file-library-sandbox`, once its package is installed (in the kit's repo, `npm run sandbox`): a stateful File Library on this machine, for local development and tests. */
import { port, readCommandLine, wholeNumber } from "../lib/command-line.ts";
import { parseCorsOrigins } from "./cors.ts";
import { startSandbox } from "./start.ts";

const { values } = readCommandLine({
  name: "sandbox",
  invocation: "file-library-sandbox",
  about: `(installed from its tarball: npx --no-install file-library-sandbox ...; in the kit's repo: npm run sandbox -- ...)

Serves the three File Library operations and the signed download URLs, validated against the bundled spec,
with files in memory, or in a SQLite file with --data.`,
  flags: {
    port: { takes: "N", default: "0", parse: port, help: "port to listen on; 0 picks a free one" },
    host: { takes: "HOST", default: "127.0.0.1", help: "address to listen on" },
    data: {
      takes: "FILE",
      help: `SQLite database file, created when missing; in memory when absent. One sandbox at a
time may use a file: a second one on it refuses to start. Needs Node 22.14+ and a
platform that better-sqlite3 ships a binary for (Linux, macOS, Windows; x64, arm64)`,
    },
    fixtures: { takes: "FILE", help: "JSON array of { id, name, content, labels?, created_at?, publicUrl? } to load" },
    "url-ttl": { takes: "SECONDS", default: "900", parse: wholeNumber(1), help: "lifetime of signed download URLs" },
    "max-body": {
      takes: "BYTES",
      default: String(1024 * 1024),
      parse: wholeNumber(1),
      help: "larger update bodies get 413",
    },
    "cors-origin": {
      takes: "ORIGIN",
      repeats: true,
      help: `a web origin whose pages may call the sandbox from a browser, such as
http://localhost:5173; repeat it for several. Default: any origin (*), because the
sandbox is a development tool that listens on 127.0.0.1 only. --cors-origin none
turns CORS off (a browser then refuses every call from another origin).`,
    },
  },
  more: `Environment:
  FILE_LIBRARY_API_KEY         the key clients must send as Authorization: Bearer <key> (required)
  FILE_LIBRARY_SANDBOX_SECRET  secret of the signed URLs; random per start when absent`,
});

function fail(message: string): never {
  console.error(`sandbox: ${message}`);
  process.exit(2);
}

let corsOrigins;
try {
  corsOrigins = parseCorsOrigins(values["cors-origin"]);
} catch (error) {
  fail((error as Error).message);
}

let sandbox;
try {
  sandbox = await startSandbox({
    apiKey: process.env.FILE_LIBRARY_API_KEY ?? "",
    host: values.host,
    port: values.port,
    dataFile: values.data,
    fixturesFile: values.fixtures,
    urlTtlSeconds: values["url-ttl"],
    maxBodyBytes: values["max-body"],
    secret: process.env.FILE_LIBRARY_SANDBOX_SECRET,
    corsOrigins,
  });
} catch (error) {
  fail((error as Error).message);
}

console.log(`File Library sandbox listening at ${sandbox.baseUrl}`);
console.log(`  database: ${values.data ?? "in memory"}, ${sandbox.fileCount} file(s)`);
if (sandbox.demoFileIds.length > 0) console.log(`  demo files: ${sandbox.demoFileIds.join(", ")}`);
console.log(`  key: FILE_LIBRARY_API_KEY; signed URLs expire after ${values["url-ttl"]} s`);
console.log(
  `  CORS: ${corsOrigins === "none" ? "off" : corsOrigins === "*" ? "any origin (--cors-origin ORIGIN restricts it)" : corsOrigins.join(", ")}`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.log(`sandbox: ${signal}, finishing in-flight requests`);
    void sandbox.close().then(() => process.exit(0));
  });
}
