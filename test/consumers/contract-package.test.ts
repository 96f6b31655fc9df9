import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { bin, fromRoot } from "../../scripts/lib/paths.ts";
import type { ContractSummary } from "../../contract-tests/index.ts";
import { catalogue } from "../../contract-tests/checks/catalogue.ts";
import { formatSummary } from "../../contract-tests/report/summary-format.ts";
import { VARIABLES } from "../../contract-tests/run/settings.ts";
import { installInto, lintPackage, run } from "../support/packages.ts";
import { PACK_WAIT_MS, packed } from "../support/packed.ts";
import { exitCodeOf, runCommand, startChild, waitForOutput } from "../../lib/process.ts";
import { childrenOf } from "../support/processes.ts";
import { sandbox, SANDBOX_KEY, storedMetadata } from "../support/sandbox.ts";
import { closedPort } from "../support/closed-port.ts";

const fixturesFile = fromRoot("test/fixtures/sandbox-files.json");

// What a pipeline does with the published contract package: install it and run its CLI against a server.
let scratch: string;
let project: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-contract-package-"));
  const tarball = await packed("contract");
  await lintPackage(tarball);
  project = await installInto(path.join(scratch, "pipeline"), tarball);
  installed = await installSize(path.join(project, "node_modules"));
}, PACK_WAIT_MS);

/** What an install into an empty project put in its node_modules, read before any test adds to it. */
let installed: { bytes: number; packages: number };

/** The bytes of every file under `folder`, and how many packages (folders with a package.json one level under a scope or not). */
async function installSize(folder: string): Promise<{ bytes: number; packages: number }> {
  let bytes = 0;
  let packages = 0;
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    const where = path.join(entry.parentPath, entry.name);
    if (entry.isFile()) bytes += (await stat(where)).size;
    if (
      entry.isFile() &&
      entry.name === "package.json" &&
      /(^|\/)node_modules\/(@[^/]+\/)?[^/@][^/]*$/.test(entry.parentPath)
    )
      packages++;
  }
  return { bytes, packages };
}
afterAll(() => rm(scratch, { recursive: true, force: true }));

// A program that runs the suite through the package's library entry; it declares `process` and `console` itself, so that
// type-checking proves the published types do not need @types/node.
const PROGRAM = `import { runSuite, type ContractSummary } from "file-library-contract";
declare const process: { env: Record<string, string | undefined> };
declare const console: { log(line: string): void };
const run = await runSuite({ env: process.env, reportDir: "program-reports" });
const summary: ContractSummary | undefined = run.summary;
const typesOnly = () => {
  // @ts-expect-error output is "inherit" or "capture": the published types must say so
  void runSuite({ output: "quiet" });
};
void typesOnly;
console.log(JSON.stringify({ exitCode: run.exitCode, mode: summary?.target.mode, failed: summary?.totals.failed, reportDir: run.reportDir }));
`;

/** Runs the installed CLI through npx, as a pipeline would, in the project folder. */
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCommand("npx", ["--no-install", "--loglevel=error", "file-library-contract", ...args], {
    cwd: project,
    env: {
      ...process.env,
      FILE_LIBRARY_BASE_URL: "",
      FILE_LIBRARY_FILE_ID: "",
      FILE_LIBRARY_API_KEY: "",
      FILE_LIBRARY_WRITE_CHECKS: "",
      ...env,
    },
  });

/** Starts a sandbox (with a fault, if named), runs the CLI against it with its reports in a fresh folder, stops it. */
async function cliAgainst(fault?: string) {
  const sb = await sandbox({ fixturesFile, ...(fault ? { fault } : {}) });
  const reportDir = await mkdtemp(path.join(project, "reports-"));
  try {
    const result = await cli(
      ["--base-url", sb.baseUrl, "--file-id", "doc-1", "--report-dir", path.basename(reportDir)],
      {
        FILE_LIBRARY_API_KEY: SANDBOX_KEY,
        FILE_LIBRARY_WRITE_CHECKS: "1",
      },
    );
    const summary = JSON.parse(
      await readFile(path.join(reportDir, "contract-summary.json"), "utf8"),
    ) as ContractSummary;
    return { ...result, summary, reportDir };
  } finally {
    await sb.close();
  }
}

describe("the contract package, packed and installed in a project of its own", { timeout: 120_000 }, () => {
  it("installs light: at most 15 MB and a dozen packages into an empty project (README, docs/development.md)", () => {
    expect(installed.bytes).toBeLessThanOrEqual(15 * 1024 * 1024);
    expect(installed.packages).toBeLessThanOrEqual(12);
  });

  it("brings the suite's dependencies, neither the client nor Prism", async () => {
    const manifest = JSON.parse(
      await readFile(path.join(project, "node_modules/file-library-contract/package.json"), "utf8"),
    );
    // undici: the suite's own connection pool (a retry on a new connection) and the proxy's upstream client. No test
    // runner: the suite runs in the CLI's own process (docs/decisions.md, D35).
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["ajv", "ajv-formats", "fast-check", "undici"]);
    const installed = await readdir(path.join(project, "node_modules"));
    for (const absent of ["openapi-fetch", "file-library-kit", "@stoplight", "vitest", "vite"])
      expect(installed).not.toContain(absent);
  });

  it("--help explains every flag and variable, and the exit codes", async () => {
    const { code, output } = await cli(["--help"]);
    expect(code).toBe(0);
    const flags = [
      "--base-url",
      "--file-id",
      "--list-checks",
      "--checks",
      "--exclude-checks",
      "--seed",
      "--shuffle",
      "--report-dir",
      "--rate-limit",
      "--version",
      "--help",
      "proxy --upstream",
    ];
    // Every setting the suite reads, but the two its own runner sets.
    const variables = Object.values(VARIABLES).filter(
      (name) => !["FILE_LIBRARY_MOCK_URL", "FILE_LIBRARY_REQUESTS_BEFORE"].includes(name),
    );
    for (const word of [...flags, ...variables, "Exit codes: 0"]) expect(output).toContain(word);
    // The mock lives in the kit's repo; the published CLI checks servers.
    expect(output).not.toContain("--mock");
  });

  it("--version prints the package's version, and --list-checks the whole catalogue", async () => {
    const { version } = JSON.parse(await readFile(fromRoot("contract-tests/package.json"), "utf8")) as {
      version: string;
    };
    const printed = await cli(["--version"]);
    expect(printed.code).toBe(0);
    expect(printed.output).toContain(`${version}\n`);
    const listed = await cli(["--list-checks"]);
    expect(listed.code).toBe(0);
    for (const check of catalogue) expect(listed.output).toMatch(new RegExp(`^${check.name} `, "m"));
  });

  it("without a server to check, exits 2 with one line that says what to give", async () => {
    const { code, output } = await cli([]);
    expect(code).toBe(2);
    expect(
      output
        .trim()
        .split("\n")
        .filter((l) => !l.startsWith("npm warn")),
    ).toEqual([
      expect.stringMatching(
        /^file-library-contract: cannot start: no server to check: give its base URL with --base-url/,
      ),
    ]);
  });

  it("passes a sound server with write checks on, and writes its reports under the project", async () => {
    const run = await cliAgainst();
    expect(run.code, run.output).toBe(0);
    expect(run.summary.target.mode).toBe("live");
    expect(run.summary.totals).toMatchObject({ failed: 0, skipped: 0 });
    expect(run.summary.checks.length).toBeGreaterThanOrEqual(15);
    expect((await readdir(run.reportDir)).sort()).toEqual([
      "contract-coverage.json",
      "contract-coverage.md",
      "contract-junit.xml",
      "contract-summary.json",
    ]);
    expect(run.output).not.toContain(SANDBOX_KEY);
  });

  it("runSuite, imported by a program that type-checks against the package (without @types/node), runs the same checks", async () => {
    await writeFile(path.join(project, "check.mts"), PROGRAM);
    const compilerOptions = {
      strict: true,
      module: "nodenext",
      moduleResolution: "nodenext",
      target: "es2022",
      lib: ["es2022"],
      types: [],
      outDir: "out",
    };
    await writeFile(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["check.mts"] }));
    await run(bin("tsc"), ["-p", "tsconfig.json"], project);
    const sb = await sandbox({ fixturesFile });
    try {
      const env = {
        ...process.env,
        FILE_LIBRARY_BASE_URL: sb.baseUrl,
        FILE_LIBRARY_API_KEY: SANDBOX_KEY,
        FILE_LIBRARY_FILE_ID: "doc-1",
        FILE_LIBRARY_WRITE_CHECKS: "",
      };
      const output = await run(process.execPath, ["out/check.mjs"], project, env);
      const summary = JSON.parse(
        await readFile(path.join(project, "program-reports", "contract-summary.json"), "utf8"),
      ) as ContractSummary;
      expect(JSON.parse(output.trim().split("\n").at(-1)!), formatSummary(summary)).toEqual({
        exitCode: 0,
        mode: "live",
        failed: 0,
        reportDir: path.join(project, "program-reports"),
      });
    } finally {
      await sb.close();
    }
  });

  it("on Ctrl-C (SIGINT) stops the suite it runs in its own process and exits 130", async () => {
    // Every answer of this sandbox takes 120 ms, so that the run is still going when the signal comes.
    const sb = await sandbox({ fixturesFile, fault: "slow-answers" });
    const child = startChild(
      process.execPath,
      [
        path.join(project, "node_modules/file-library-contract/dist/cli.js"),
        "--base-url",
        sb.baseUrl,
        "--file-id",
        "doc-1",
      ],
      {
        cwd: project,
        env: { ...process.env, FILE_LIBRARY_API_KEY: SANDBOX_KEY, FILE_LIBRARY_REPORT_DIR: "interrupted-reports" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    try {
      await waitForOutput(child, /contract: seed \d+/);
      expect(await childrenOf(child.pid!), "the CLI runs the suite in its own process").toEqual([]);
      let after = "";
      child.stdout!.on("data", (chunk: Buffer) => (after += chunk.toString()));
      child.kill("SIGINT");
      expect(await exitCodeOf(child)).toBe(130);
      // Stopped, not finished: no summary (over 40 requests at 120 ms each were still to come).
      expect(after).not.toMatch(/contract: \d+ passed/);
    } finally {
      child.kill("SIGKILL");
      await sb.close();
    }
  });

  it("proxy -- <command>: sound traffic has 0 findings (exit 0), a fault's is reported under its check (exit 1), the key nowhere", async () => {
    // An app of the pipeline's own: it reads, updates and reads back through FILE_LIBRARY_BASE_URL.
    await writeFile(
      path.join(project, "app.mjs"),
      `const base = process.env.FILE_LIBRARY_BASE_URL + "/studio/v1/library/files/doc-1";
const headers = { authorization: "Bearer " + process.env.FILE_LIBRARY_API_KEY, "content-type": "application/json" };
for (const init of [{}, { method: "PUT", body: JSON.stringify({ labels: ["from-the-app"] }) }, {}]) {
  const answer = await fetch(base, { headers, ...init });
  console.log("app", init.method ?? "GET", answer.status);
}
const url = await fetch(base + "/download", { headers });
console.log("app download", url.status);
`,
    );
    for (const [fault, code, found] of [
      [undefined, 0, []],
      ["metadata-size-as-string", 1, ["service getFile response_schema_conformance"]],
    ] as const) {
      const sb = await sandbox({ fixturesFile, ...(fault ? { fault } : {}) });
      try {
        const reportDir = await mkdtemp(path.join(project, "proxy-reports-"));
        const result = await cli(
          [
            "proxy",
            "--upstream",
            sb.baseUrl,
            "--report-dir",
            path.basename(reportDir),
            "--",
            process.execPath,
            "app.mjs",
          ],
          { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
        );
        expect(result.output).toContain("app PUT 200");
        expect(result.code, result.output).toBe(code);
        const summary = JSON.parse(await readFile(path.join(reportDir, "proxy-summary.json"), "utf8")) as {
          exchanges: number;
          findings: Array<{ side: string; operation: string; check: string }>;
        };
        expect(summary.exchanges).toBe(4);
        expect(summary.findings.map((f) => `${f.side} ${f.operation} ${f.check}`)).toEqual(found);
        expect((await readdir(reportDir)).sort()).toEqual([
          "proxy-junit.xml",
          "proxy-summary.json",
          "proxy-summary.md",
        ]);
        expect(result.output).not.toContain(SANDBOX_KEY);
      } finally {
        await sb.close();
      }
    }
  });

  it("proxy --findings-header --fail-on-service-finding: the app's own call meets the finding; an upstream that answers nothing exits 2 naming it", async () => {
    await writeFile(
      path.join(project, "app-sees.mjs"),
      `const answer = await fetch(process.env.FILE_LIBRARY_BASE_URL + "/studio/v1/library/files/doc-1", { headers: { authorization: "Bearer " + process.env.FILE_LIBRARY_API_KEY } });
console.log("app", answer.status, answer.headers.get("x-contract-findings"), answer.headers.get("content-type"));
`,
    );
    const sb = await sandbox({ fixturesFile, fault: "metadata-size-as-string" });
    try {
      const reportDir = await mkdtemp(path.join(project, "proxy-modes-"));
      const flags = ["--findings-header", "--fail-on-service-finding", "--report-dir", path.basename(reportDir)];
      const result = await cli(["proxy", "--upstream", sb.baseUrl, ...flags, "--", process.execPath, "app-sees.mjs"], {
        FILE_LIBRARY_API_KEY: SANDBOX_KEY,
      });
      expect(result.output).toContain(
        "app 502 1; service getFile response_schema_conformance application/problem+json",
      );
      expect(result.code, result.output).toBe(1);
      expect(result.output).not.toContain(SANDBOX_KEY);
    } finally {
      await sb.close();
    }
    const down = `http://127.0.0.1:${await closedPort()}`;
    const result = await cli(["proxy", "--upstream", down, "--", process.execPath, "app-sees.mjs"], {
      FILE_LIBRARY_API_KEY: SANDBOX_KEY,
    });
    expect(result.output).toContain("app 502 null application/json");
    expect(result.code, result.output).toBe(2);
    expect(result.output).toMatch(
      new RegExp(
        `file-library-contract proxy: the upstream ${down.replace(/\./g, "\\.")} answered none of the 1 request\\(s\\)`,
      ),
    );
  });

  it("fails a server that echoes the key, exit 1, without printing or reporting the key", async () => {
    const run = await cliAgainst("key-echoed-in-header");
    expect(run.code, run.output).toBe(1);
    expect(run.summary.checks.filter((c) => c.state === "failed").map((c) => c.check)).toContain("no_secret_echo");
    expect(run.output).toMatch(/FAILED .* no_secret_echo: /);
    expect(run.output).not.toContain(SANDBOX_KEY);
    for (const report of await readdir(run.reportDir))
      expect(await readFile(path.join(run.reportDir, report), "utf8")).not.toContain(SANDBOX_KEY);
  });
});

describe("the contract package's proxy --record and replay, packed and installed", { timeout: 120_000 }, () => {
  it("records an app's run (reads, the download, an update put back, an unknown id) with no key, and replays it: 0 on the sandbox, read-only unless told, 1 on faults naming the exchange", async () => {
    // The app of a pipeline: through FILE_LIBRARY_BASE_URL, which the proxy sets.
    await writeFile(
      path.join(project, "recorded-app.mjs"),
      `const base = process.env.FILE_LIBRARY_BASE_URL + "/studio/v1/library/files/";
const headers = { authorization: "Bearer " + process.env.FILE_LIBRARY_API_KEY, "content-type": "application/json" };
const steps = [["doc-1"], ["doc-1/download"], ["doc-1", { method: "PUT", body: JSON.stringify({ labels: ["from-the-app"] }) }], ["doc-1"],
  ["doc-1", { method: "PUT", body: JSON.stringify({ labels: ["a", "b"], publicUrl: "https://cdn.example.test/report.txt" }) }], ["no-such-file"]];
for (const [target, init] of steps) console.log("app", init?.method ?? "GET", target, (await fetch(base + target, { headers, ...init })).status);
`,
    );
    const recorded = await sandbox({ fixturesFile });
    try {
      const result = await cli(
        [
          "proxy",
          "--upstream",
          recorded.baseUrl,
          "--record",
          "traffic.jsonl",
          "--report-dir",
          "record-reports",
          "--",
          process.execPath,
          "recorded-app.mjs",
        ],
        { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
      );
      expect(result.code, result.output).toBe(0);
      expect(result.output).toContain("app GET no-such-file 422");
    } finally {
      await recorded.close();
    }
    const text = await readFile(path.join(project, "traffic.jsonl"), "utf8");
    expect(text).not.toContain(SANDBOX_KEY);
    expect(
      text
        .trimEnd()
        .split("\n")
        .map((line) => {
          const l = JSON.parse(line);
          return `${l.format} ${l.method} ${l.operation} ${l.response.status}`;
        }),
    ).toEqual([
      "file-library-recording/1 GET getFile 200",
      "file-library-recording/1 GET getFileDownloadUrl 200",
      "file-library-recording/1 PUT updateFile 200",
      "file-library-recording/1 GET getFile 200",
      "file-library-recording/1 PUT updateFile 200",
      "file-library-recording/1 GET getFile 422",
    ]);

    const replayAgainst = async (fault: string | undefined, flags: string[] = []) => {
      const sb = await sandbox({ fixturesFile, ...(fault ? { fault } : {}) });
      try {
        const reportDir = await mkdtemp(path.join(project, "replay-reports-"));
        const run = await cli(
          ["replay", "traffic.jsonl", "--base-url", sb.baseUrl, "--report-dir", path.basename(reportDir), ...flags],
          { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
        );
        return {
          ...run,
          puts: sb.logs.filter((l) => l.startsWith("PUT ")).length,
          doc1: await storedMetadata(sb.baseUrl, "doc-1"),
          reports: (await readdir(reportDir)).sort(),
        };
      } finally {
        await sb.close();
      }
    };
    const readOnly = await replayAgainst(undefined);
    expect(readOnly.code, readOnly.output).toBe(0);
    expect(readOnly.puts).toBe(0);
    expect(readOnly.output).toContain("left out: 2 update(s) not replayed: a read-only replay");
    expect(readOnly.reports).toEqual(["replay-junit.xml", "replay-summary.json", "replay-summary.md"]);
    const writing = await replayAgainst(undefined, ["--write-checks"]);
    expect(writing.code, writing.output).toBe(0);
    // The app's two updates, then the file put back as the replay found it.
    expect(writing.puts).toBe(3);
    expect(writing.doc1).toEqual(readOnly.doc1);
    for (const [fault, named] of [
      [
        "metadata-size-as-string",
        "BREAK (consumer) line 1: GET /studio/v1/library/files/doc-1 as_the_app_saw_it: $.size was a number (5) for the app; the deployment sends a string",
      ],
      [
        "metadata-missing-labels",
        "BREAK (consumer) line 1: GET /studio/v1/library/files/doc-1 as_the_app_saw_it: $.labels is missing",
      ],
      [
        "unknown-id-404",
        "BREAK (consumer) line 6: GET /studio/v1/library/files/no-such-file as_the_app_saw_it: the app got HTTP 422; the deployment answers HTTP 404",
      ],
    ] as const) {
      const broken = await replayAgainst(fault);
      expect(broken.code, broken.output).toBe(1);
      expect(broken.output).toContain(named);
      expect(broken.output).toContain('-H "Authorization: Bearer $FILE_LIBRARY_API_KEY"');
      expect(broken.output).not.toContain(SANDBOX_KEY);
    }
  });
});
