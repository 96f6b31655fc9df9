import { readFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { defaultSpecFile, suiteConfigFile } from "./locations.ts";
import type { ContractSummary } from "./report.ts";
import { exitCodeOf, runCommand, startChild } from "../lib/process.ts";

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
  /**
   * Stops the run: the suite's process is ended and runSuite rejects with the signal's reason. runSuite installs
   * no signal handler of its own; a host that wants Ctrl-C to stop the suite aborts this from its handler.
   */
  signal?: AbortSignalLike | undefined;
}

/** What runSuite uses of an AbortSignal: any AbortSignal fits, and the published types need neither DOM nor Node's. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/** The outcome of one run of the suite. */
export interface SuiteRun {
  /** 0 when every selected check passed, 1 when one failed, 2 when the run could not finish (`summary.stopped` says why). */
  exitCode: 0 | 1 | 2;
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
  const outer = options.signal;
  if (outer?.aborted) throw outer.reason;
  // A signal of our own for the child process, linked to the caller's, so that any signal-like object works.
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", forward, { once: true });
  try {
    return await run(options, controller.signal);
  } finally {
    outer?.removeEventListener("abort", forward);
  }
}

async function run(options: SuiteOptions, signal: AbortSignal): Promise<SuiteRun> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const reportDir = path.resolve(cwd, options.reportDir ?? env.FILE_LIBRARY_REPORT_DIR ?? "reports");
  const childEnv = { ...env, FILE_LIBRARY_SPEC: env.FILE_LIBRARY_SPEC || defaultSpecFile, FILE_LIBRARY_REPORT_DIR: reportDir };
  const summaryFile = path.join(reportDir, "contract-summary.json");
  // A summary left by an earlier run must not pass for this one's.
  await rm(summaryFile, { force: true });
  const args = [vitestEntry(), "run", "--config", suiteConfigFile];
  const spawnOptions = { cwd, env: childEnv, signal };
  let code: number;
  let output = "";
  if (options.output === "inherit") {
    // An abort of the signal kills the child (spawn's own `signal`); the wait ends only once it has exited.
    code = await exitCodeOf(startChild(process.execPath, args, { ...spawnOptions, stdio: "inherit" }));
    signal.throwIfAborted();
  } else {
    ({ code, output } = await runCommand(process.execPath, args, spawnOptions));
  }
  const summary = await readFile(summaryFile, "utf8").then(
    (text) => JSON.parse(text) as ContractSummary,
    () => undefined,
  );
  const exitCode = summary?.stopped ? 2 : code === 0 ? 0 : 1;
  return { exitCode, output, reportDir, summary };
}
