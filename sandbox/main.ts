/** `npx file-library-sandbox` (in the kit's repo, `npm run sandbox`): a stateful File Library on this machine, for local development and tests. */
import { parseArgs } from "node:util";
import { parseCorsOrigins } from "./cors.ts";
import { startSandbox } from "./start.ts";
import { faults, legitimateVariants } from "./faults.ts";

const HELP = `Usage: file-library-sandbox [--port N] [--host 127.0.0.1] [--data FILE] [--fixtures FILE.json] [--url-ttl SECONDS] [--cors-origin ORIGIN]...
       (with npx: npx file-library-sandbox ...; in the kit's repo: npm run sandbox -- ...)

Serves the three File Library operations and the signed download URLs, validated against the bundled spec,
with files in memory, or in a SQLite file with --data.

  --port N            port to listen on; 0 (the default) picks a free one
  --host HOST         address to listen on (default 127.0.0.1)
  --data FILE         SQLite database file, created when missing; in memory when absent. One sandbox at a
                      time may use a file: a second one on it refuses to start. Needs Node 22.14+ and a
                      platform that better-sqlite3 ships a binary for (Linux, macOS, Windows; x64, arm64)
  --fixtures FILE     JSON array of { id, name, content, labels?, created_at?, publicUrl? } to load
  --url-ttl SECONDS   lifetime of signed download URLs (default 900)
  --max-body BYTES    larger update bodies get 413 (default 1048576)
  --cors-origin ORIGIN  a web origin whose pages may call the sandbox from a browser, such as
                      http://localhost:5173; repeat it for several. Default: any origin (*), because the
                      sandbox is a development tool that listens on 127.0.0.1 only. --cors-origin none
                      turns CORS off (a browser then refuses every call from another origin).
  --fault NAME        break the contract on purpose (tests of the contract suite only)
  --variant NAME      keep the contract in a less common way (tests of the contract suite only)

Environment:
  FILE_LIBRARY_API_KEY         the key clients must send as Authorization: Bearer <key> (required)
  FILE_LIBRARY_SANDBOX_SECRET  secret of the signed URLs; random per start when absent`;

function fail(message: string): never {
  console.error(`sandbox: ${message}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: "string", default: "0" },
      host: { type: "string", default: "127.0.0.1" },
      data: { type: "string" },
      fixtures: { type: "string" },
      "url-ttl": { type: "string", default: "900" },
      "max-body": { type: "string", default: String(1024 * 1024) },
      fault: { type: "string" },
      variant: { type: "string" },
      "cors-origin": { type: "string", multiple: true, default: [] },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  }));
} catch (error) {
  fail(`${(error as Error).message} (see --help)`);
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const integer = (name: string, text: string, min: number) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) fail(`--${name} must be a whole number of at least ${min}, got ${JSON.stringify(text)}.`);
  return value;
};

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
    port: integer("port", values.port, 0),
    dataFile: values.data,
    fixturesFile: values.fixtures,
    urlTtlSeconds: integer("url-ttl", values["url-ttl"], 1),
    maxBodyBytes: integer("max-body", values["max-body"], 1),
    secret: process.env.FILE_LIBRARY_SANDBOX_SECRET,
    fault: values.fault,
    variant: values.variant,
    corsOrigins,
  });
} catch (error) {
  fail((error as Error).message);
}

console.log(`File Library sandbox listening at ${sandbox.baseUrl}`);
console.log(`  database: ${values.data ?? "in memory"}, ${sandbox.fileCount} file(s)`);
if (sandbox.demoFileIds.length > 0) console.log(`  demo files: ${sandbox.demoFileIds.join(", ")}`);
console.log(`  key: FILE_LIBRARY_API_KEY; signed URLs expire after ${values["url-ttl"]} s`);
console.log(`  CORS: ${corsOrigins === "none" ? "off" : corsOrigins === "*" ? "any origin (--cors-origin ORIGIN restricts it)" : corsOrigins.join(", ")}`);
if (values.fault) console.log(`  FAULT ${values.fault}: ${faults[values.fault as keyof typeof faults].description}`);
if (values.variant) console.log(`  variant ${values.variant}: ${legitimateVariants[values.variant as keyof typeof legitimateVariants].description}`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.log(`sandbox: ${signal}, finishing in-flight requests`);
    void sandbox.close().then(() => process.exit(0));
  });
}
