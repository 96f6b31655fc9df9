import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ContractSummary } from "../../contract-tests/index.ts";
import { runCommand, startServer, type ServerProcess } from "../../lib/process.ts";
import { FILE_ID, SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { NODE_LINES, registryNode, type RegistryNode } from "../support/node-lines.ts";
import { installInto, run } from "../support/packages.ts";
import { nodeLineFetched, PACK_WAIT_MS, packed } from "../support/packed.ts";

// What a user on each supported Node line does with the three published packages: install them with that Node's npm
// run, and run the client, the contract CLI, runSuite, the proxy and the sandbox on it. The tests of the sandbox and
// the suite themselves run on the toolchain's Node; this file checks the packed packages on every line.
const KEY = "node-lines-key-8c1e";

// The client as an app uses it, from ESM and from CommonJS: a file's name, and the typed error of an unknown id.
const ESM_APP = `import { createFileLibraryClient, UnprocessableEntityError } from "file-library-kit";
const files = createFileLibraryClient().files;
const unknown = await files.get("no-such-file").catch((error) => error instanceof UnprocessableEntityError && error.status);
console.log(JSON.stringify({ node: process.version, name: (await files.get("doc-1")).name, unknown }));
`;
const CJS_APP = `const { createFileLibraryClient, UnprocessableEntityError } = require("file-library-kit");
const files = createFileLibraryClient().files;
files.get("doc-1").then(async (file) => {
  const unknown = await files.get("no-such-file").catch((error) => error instanceof UnprocessableEntityError && error.status);
  console.log(JSON.stringify({ node: process.version, name: file.name, unknown }));
});
`;
// runSuite from a program; the settings come from the environment.
const PROGRAM = `import { runSuite } from "file-library-contract";
const run = await runSuite({ env: process.env, reportDir: "program-reports", output: "capture" });
console.log(JSON.stringify({ node: process.version, exitCode: run.exitCode, mode: run.summary?.target.mode, failed: run.summary?.totals.failed }));
`;
// The app that the proxy wraps: it reads, updates and reads back through FILE_LIBRARY_BASE_URL.
const PROXIED_APP = `const base = process.env.FILE_LIBRARY_BASE_URL + "/studio/v1/library/files/doc-1";
const headers = { authorization: "Bearer " + process.env.FILE_LIBRARY_API_KEY, "content-type": "application/json" };
for (const init of [{}, { method: "PUT", body: JSON.stringify({ labels: ["from-" + process.version] }) }, {}]) {
  console.log("app", init.method ?? "GET", (await fetch(base, { headers, ...init })).status);
}
`;

// A team's script that starts the packed sandbox with a fault, through its testing entry: the bin ships none.
const FAULTY_SANDBOX = `import { startSandbox, variation } from "file-library-sandbox/testing";
const [fixturesFile, fault] = process.argv.slice(2);
const sandbox = await startSandbox({ apiKey: process.env.FILE_LIBRARY_API_KEY, fixturesFile, ...variation({ fault }) });
console.log("faulty sandbox listening at " + sandbox.baseUrl);
`;

let scratch: string;
let tarballs: string[];
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-node-lines-"));
  // One tarball of each package serves every line: packing builds them with the toolchain, as a release does.
  tarballs = await Promise.all((["client", "contract", "sandbox"] as const).map((name) => packed(name)));
}, PACK_WAIT_MS);
afterAll(() => rm(scratch, { recursive: true, force: true }));

// The Node that runs the tests, when it is one of the lines (.ci/run's is), is not run again here: the packages' own
// tests (test/consumers/{client,contract,sandbox}-package.test.ts) run the same checks on it, from tarballs installed
// by its npm. Any other Node runs the tests: then all three lines come from the registry.
const toolchainLine = NODE_LINES.find((version) => process.version === `v${version}`);
const otherLines = NODE_LINES.filter((version) => version !== toolchainLine);

describe.each(otherLines.map((version) => [version.split(".")[0]!, version] as const))(
  "Node %s (%s, from the npm registry)",
  (_, version) => {
    let line: RegistryNode;
    let project: string;
    let sandbox: ServerProcess;
    const servers: ServerProcess[] = [];

    /** The packed sandbox on this line, with the test fixtures; with `--data`, ready once it has opened the file. */
    async function startSandbox(args: string[]): Promise<ServerProcess> {
      const server = await startServer(
        line.node,
        [
          path.join(project, "node_modules/file-library-sandbox/dist/main.js"),
          "--port",
          "0",
          "--fixtures",
          SANDBOX_FIXTURES,
          ...args,
        ],
        {
          cwd: project,
          env: { ...line.env, FILE_LIBRARY_API_KEY: KEY },
          ready: /listening at (http:\/\/\S+)\n\s*database: (?:\.\/files\.db|in memory), 3 file\(s\)/,
          timeoutMs: 30_000,
          what: `the packed sandbox on Node ${version}`,
        },
      );
      servers.push(server);
      return server;
    }

    /** Runs a program of the project on this line, with the key and any settings given; resolves with code and output. */
    const onLine = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      runCommand(line.node, args, {
        cwd: project,
        env: {
          ...line.env,
          FILE_LIBRARY_API_KEY: KEY,
          FILE_LIBRARY_BASE_URL: "",
          FILE_LIBRARY_FILE_ID: "",
          FILE_LIBRARY_WRITE_CHECKS: "",
          ...env,
        },
      });
    const cli = path.join("node_modules", "file-library-contract", "dist", "cli.js");
    const lastLine = (output: string) => JSON.parse(output.trim().split("\n").at(-1)!) as Record<string, unknown>;

    beforeAll(async () => {
      // Fetched by the pack service while the packs built: taken from the cache here.
      await nodeLineFetched(version);
      line = await registryNode(version);
      expect((await run(line.node, ["--version"])).trim()).toBe(`v${version}`);
      // Installed by npm running on this line, as the user's would: its engine checks and optional dependencies are this line's.
      project = await installInto(path.join(scratch, `node-${version}`), tarballs, { type: "module" }, line.env);
      await writeFile(path.join(project, "app.mjs"), ESM_APP);
      await writeFile(path.join(project, "app.cjs"), CJS_APP);
      await writeFile(path.join(project, "program.mjs"), PROGRAM);
      await writeFile(path.join(project, "proxied-app.mjs"), PROXIED_APP);
      await writeFile(path.join(project, "faulty-sandbox.mjs"), FAULTY_SANDBOX);
      sandbox = await startSandbox(["--data", "./files.db"]);
    }, 240_000);
    afterAll(() => Promise.all(servers.map((server) => server.stop())));

    it("serves with SQLite (--data): the sandbox's storage loads its prebuilt binary, no compile", async () => {
      expect(sandbox.output()).toContain("database: ./files.db, 3 file(s)");
      expect(existsSync(path.join(project, "files.db"))).toBe(true);
      expect(existsSync(path.join(project, "node_modules/better-sqlite3/build"))).toBe(false);
    });

    it.each(["app.mjs", "app.cjs"])("runs the client from %s", async (app) => {
      const { code, output } = await onLine([app], { FILE_LIBRARY_BASE_URL: sandbox.url });
      expect(code, output).toBe(0);
      expect(lastLine(output)).toEqual({ node: `v${version}`, name: "report.txt", unknown: 422 });
    });

    it("the contract CLI passes the sandbox with --data, write checks on", { timeout: 120_000 }, async () => {
      const { code, output } = await onLine(
        [cli, "--base-url", sandbox.url, "--file-id", FILE_ID, "--report-dir", "passing"],
        { FILE_LIBRARY_WRITE_CHECKS: "1" },
      );
      expect(code, output).toBe(0);
      const summary = JSON.parse(
        await readFile(path.join(project, "passing", "contract-summary.json"), "utf8"),
      ) as ContractSummary;
      expect(summary.totals).toMatchObject({ failed: 0, skipped: 0 });
      expect(output).not.toContain(KEY);
    });

    it("the contract CLI fails a sandbox that echoes the key (started by the testing entry), exit 1, the key nowhere", {
      timeout: 120_000,
    }, async () => {
      const faulty = await startServer(line.node, ["faulty-sandbox.mjs", SANDBOX_FIXTURES, "key-echoed-in-header"], {
        cwd: project,
        env: { ...line.env, FILE_LIBRARY_API_KEY: KEY },
        ready: /faulty sandbox listening at (http:\/\/\S+)/,
        timeoutMs: 30_000,
        what: `the packed sandbox's testing entry on Node ${version}`,
      });
      servers.push(faulty);
      const { code, output } = await onLine([
        cli,
        "--base-url",
        faulty.url,
        "--file-id",
        FILE_ID,
        "--report-dir",
        "failing",
      ]);
      expect(code, output).toBe(1);
      const summary = JSON.parse(
        await readFile(path.join(project, "failing", "contract-summary.json"), "utf8"),
      ) as ContractSummary;
      expect(summary.checks.filter((c) => c.state === "failed").map((c) => c.check)).toContain("no_secret_echo");
      expect(output).not.toContain(KEY);
    });

    it("runSuite, from a program, passes the sandbox", { timeout: 120_000 }, async () => {
      const { code, output } = await onLine(["program.mjs"], {
        FILE_LIBRARY_BASE_URL: sandbox.url,
        FILE_LIBRARY_FILE_ID: FILE_ID,
      });
      expect(code, output).toBe(0);
      expect(lastLine(output)).toEqual({ node: `v${version}`, exitCode: 0, mode: "live", failed: 0 });
    });

    it("the proxy wraps an app's command: its traffic judged, 0 findings, exit 0", { timeout: 60_000 }, async () => {
      const { code, output } = await onLine([
        cli,
        "proxy",
        "--upstream",
        sandbox.url,
        "--report-dir",
        "proxied",
        "--",
        line.node,
        "proxied-app.mjs",
      ]);
      expect(code, output).toBe(0);
      expect(output).toContain("app PUT 200");
      const summary = JSON.parse(await readFile(path.join(project, "proxied", "proxy-summary.json"), "utf8")) as {
        exchanges: number;
        findings: unknown[];
      };
      expect(summary).toMatchObject({ exchanges: 3, findings: [] });
      expect(output).not.toContain(KEY);
    });
  },
);
