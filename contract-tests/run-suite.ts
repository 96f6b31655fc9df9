import { readFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { defaultSpecFile, suiteConfigFile } from "./locations.ts";
import type { ContractSummary } from "./report.ts";
import { runCommand, spawnTracked } from "./runner/child-process.ts";

/** How to run the suite; every FILE_LIBRARY_* setting comes from `env`. */
export interface SuiteOptions {
  /** The environment of the run (default: process.env): target, key, file id, checks, seed, budgets. */
  env?: Record<string, string | undefined> | undefined;
  /** Folder of the reports (default: FILE_LIBRARY_REPORT_DIR, else `reports` under `cwd`). */
  reportDir?: string | undefined;
  /** "inherit" prints the suite's output as it runs; "capture" returns it in `output` (default). */
  output?: "inherit" | "capture" | undefined;
  /** Working directory of the run (default: process.cwd()). */
  cwd?: string | undefined;
}

/** The outcome of one run of the suite. */
export interface SuiteRun {
  /** 0 when every selected check passed, 1 otherwise. */
  exitCode: 0 | 1;
  /** What the suite printed, when captured ("" otherwise). */
  output: string;
  /** Absolute folder of the reports. */
  reportDir: string;
  /** The parsed contract-summary.json, or undefined when the run ended before writing it. */
  summary: ContractSummary | undefined;
}

const require = createRequire(import.meta.url);

/** vitest's own entry script, run with this Node: no shell, no PATH lookup, wherever npm put the package. */
function vitestEntry(): string {
  const manifest = require.resolve("vitest/package.json");
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: { vitest: string } };
  return path.join(path.dirname(manifest), bin.vitest);
}

/** Runs the contract suite once in a child process, against the target the environment names, and reads its summary. */
export async function runSuite(options: SuiteOptions = {}): Promise<SuiteRun> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const reportDir = path.resolve(cwd, options.reportDir ?? env.FILE_LIBRARY_REPORT_DIR ?? "reports");
  const childEnv = { ...env, FILE_LIBRARY_SPEC: env.FILE_LIBRARY_SPEC || defaultSpecFile, FILE_LIBRARY_REPORT_DIR: reportDir };
  const summaryFile = path.join(reportDir, "contract-summary.json");
  // A summary left by an earlier run must not pass for this one's.
  await rm(summaryFile, { force: true });
  const args = [vitestEntry(), "run", "--config", suiteConfigFile];
  let code: number;
  let output = "";
  if (options.output === "inherit") {
    const child = spawnTracked(process.execPath, args, { cwd, env: childEnv, stdio: "inherit" });
    code = await new Promise<number>((resolve) => child.once("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  } else {
    ({ code, output } = await runCommand(process.execPath, args, { cwd, env: childEnv }));
  }
  const summary = await readFile(summaryFile, "utf8").then(
    (text) => JSON.parse(text) as ContractSummary,
    () => undefined,
  );
  return { exitCode: code === 0 ? 0 : 1, output, reportDir, summary };
}
