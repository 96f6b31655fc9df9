import { existsSync, readFileSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { defaultSpecFile, suiteConfigFile } from "./locations.ts";
import type { ContractSummary } from "./report/shapes.ts";
import type { StdioOptions } from "node:child_process";
import { exitCodeOf, startChild } from "../lib/process.ts";
import type { HandshakeMessage } from "./run/handshake.ts";
import { processEnvironment, settingsEnvironment, type SuiteSettingsInput } from "./run/settings.ts";
import { CannotStartError, checkSettings, checkTarget, type CheckedSettings } from "./runner/start.ts";
import type { StartupRead } from "./run/startup-read-record.ts";

/**
 * How to run the suite: each setting as an option, or else from `env` (FILE_LIBRARY_BASE_URL and the rest; see
 * `file-library-contract --help`). Options win over the environment.
 */
export interface SuiteOptions extends Omit<SuiteSettingsInput, "mockUrl" | "awaitReady" | "requestsBefore" | "preflightFile"> {
  /** The environment the settings not given as options come from (default: process.env). */
  env?: Record<string, string | undefined> | undefined;
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
  /**
   * 0 when every selected check ran and passed; 1 when one failed (even if others could not run); 2 when the run could
   * not start or could not finish (`summary.stopped` says why, and names each selected check that did not run).
   */
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

/**
 * The config vitest runs: the suite's own when it is compiled (the published package); from source (the kit's repo),
 * the same suite compiled to node_modules/.cache first, so that vitest loads it as the package's. The published build
 * defines `import.meta.suiteFromSource` false, which leaves the compiler (and esbuild) out of the package.
 */
async function configToRun(): Promise<string> {
  // A branch of its own, which the published build drops whole: the import in it goes too.
  if ((import.meta as unknown as { suiteFromSource?: false }).suiteFromSource !== false) {
    const { compiledSuiteConfig } = await import("./runner/compiled-suite.ts");
    // Not compiled (a syntax error, a cache that cannot be written): the source runs, slower, and vitest says what is wrong.
    return (await compiledSuiteConfig()) ?? suiteConfigFile;
  }
  return suiteConfigFile;
}

/** Runs the contract suite once in a child process, against the target the environment names, and reads its summary. */
export function runSuite(options: SuiteOptions = {}): Promise<SuiteRun> {
  return startSuite(options);
}

/** For startSuite: when the bundled spec and the target are ready, and when the suite's output may be shown. */
export interface SuiteStart {
  /** Resolves once the bundled spec is written: the suite's workers start then (a rejection is left to `release`). */
  spec: Promise<void>;
  /** Resolves once the target is ready, with the mock's URL when the runner started one (a rejection is left to `release`). */
  target: Promise<{ mockUrl?: string | undefined }>;
  /** The suite's output is held back until this resolves; when it rejects, the suite is stopped and its output dropped. */
  release: Promise<void>;
}

/** What a runner hears of a run it started: when its checks are about to start (after every check before the run passed). */
export interface SuiteHooks {
  /** The run passed its start: the settings, the spec, and a live server's reachability and preflight read. */
  started?: ((checked: CheckedSettings) => void | Promise<void>) | undefined;
}

/**
 * Runs the suite like runSuite, for a runner whose target is not ready yet (the kit's repo, starting its Prism mock):
 * vitest starts at once, its workers once the spec is bundled, and its checks' requests wait until the target is ready:
 * the suite's start-up overlaps the target's. When `release` rejects, startSuite rejects with the same reason.
 */
export async function startSuite(options: SuiteOptions, start?: SuiteStart, hooks: SuiteHooks = {}): Promise<SuiteRun> {
  const outer = options.signal;
  if (outer?.aborted) throw outer.reason;
  // A signal of our own for the child process, linked to the caller's, so that any signal-like object works.
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", forward, { once: true });
  try {
    return await run(options, controller.signal, start, hooks);
  } finally {
    outer?.removeEventListener("abort", forward);
  }
}

async function run(options: SuiteOptions, signal: AbortSignal, start: SuiteStart | undefined, hooks: SuiteHooks): Promise<SuiteRun> {
  const { env: baseEnv = processEnvironment(), output: _output, cwd: givenCwd, signal: _signal, ...given } = options;
  const cwd = givenCwd ?? process.cwd();
  const env = { ...baseEnv, ...settingsEnvironment(given) };
  // The one start of every runner (runner/start.ts): a run that cannot start resolves exit 2 with summary.stopped.
  let checked: CheckedSettings;
  let requestsBefore = 0;
  let startupRead: StartupRead | undefined;
  try {
    checked = await checkSettings(env, { mock: start ? "started-by-runner" : "none" });
    if (checked.live) {
      // In the kit's repo the spec may still be bundling: the preflight reads its path; a failed bundle is release's to report.
      if (!checked.specFile) await start?.spec.catch(() => {});
      ({ requestsBefore, startupRead } = await checkTarget(checked.live, checked.settings, checked.specFile ?? defaultSpecFile));
    }
  } catch (error) {
    if (!(error instanceof CannotStartError)) throw error;
    return cannotStart(error.message, path.resolve(cwd, given.reportDir ?? env.FILE_LIBRARY_REPORT_DIR ?? "reports"), env, options.output === "inherit");
  }
  const { settings } = checked;
  await hooks.started?.(checked);
  const reportDir = path.resolve(cwd, settings.reportDir ?? "reports");
  // The start-up read's answer is the run's first: the checks judge it (docs/decisions.md, "Before the first check").
  const handOver = startupRead && (await mkdtemp(path.join(os.tmpdir(), "file-library-startup-read-")));
  const preflightFile = handOver && path.join(handOver, "startup-read.json");
  if (preflightFile) await writeFile(preflightFile, JSON.stringify(startupRead), { mode: 0o600 });
  try {
    return await runChild(options, signal, start, { cwd, reportDir, childEnv: { ...baseEnv, ...settingsEnvironment({ ...given, specFile: settings.specFile ?? defaultSpecFile, reportDir, awaitReady: start !== undefined, requestsBefore, preflightFile }) } });
  } finally {
    if (handOver) await rm(handOver, { recursive: true, force: true });
  }
}

/** Runs the suite's process (vitest) with the settings as checked, and reads its summary. */
async function runChild(
  options: SuiteOptions,
  signal: AbortSignal,
  start: SuiteStart | undefined,
  { cwd, reportDir, childEnv }: { cwd: string; reportDir: string; childEnv: NodeJS.ProcessEnv },
): Promise<SuiteRun> {
  const summaryFile = path.join(reportDir, "contract-summary.json");
  // A summary left by an earlier run must not pass for this one's.
  const [configFile] = await Promise.all([configToRun(), rm(summaryFile, { force: true })]);
  const inherit = options.output === "inherit";
  // Output is piped when it is captured, or held back until released; colours stay as on a terminal.
  const piped = !inherit || start !== undefined;
  if (piped && inherit && process.stdout.isTTY && !childEnv.NO_COLOR) childEnv.FORCE_COLOR ??= "1";
  const stdio: StdioOptions = piped ? ["ignore", "pipe", "pipe", ...(start ? (["ipc"] as const) : [])] : "inherit";
  // An abort of the signal kills the child (spawn's own `signal`).
  const child = startChild(process.execPath, [vitestEntry(), "run", "--config", configFile], { cwd, env: childEnv, signal, stdio });
  let output = "";
  let held: Array<() => void> | undefined = start ? [] : undefined;
  const take = (stream: NodeJS.WriteStream) => (chunk: Buffer) => {
    if (!inherit) output += chunk.toString();
    else if (held) held.push(() => stream.write(chunk));
    else stream.write(chunk);
  };
  child.stdout?.on("data", take(process.stdout));
  child.stderr?.on("data", take(process.stderr));
  if (start) {
    // The suite says when its global setup listens: a word sent before then would be lost.
    const listening = new Promise<void>((resolve) => child.on("message", (message: HandshakeMessage) => "listening" in message && resolve()));
    // Unless the suite ended first (it failed to start): its output then says why.
    const tell = async (message: HandshakeMessage) => {
      await Promise.race([listening, exitCodeOf(child)]);
      if (child.connected) child.send(message);
    };
    const spec = start.spec.then(() => tell({ specReady: true }));
    Promise.all([start.target, spec]).then(([{ mockUrl }]) => tell({ ready: true, mockUrl }), () => {});
    try {
      await start.release;
    } catch (error) {
      child.kill("SIGTERM");
      await exitCodeOf(child);
      throw error;
    }
    for (const write of held ?? []) write();
    held = undefined;
  }
  const code = await exitCodeOf(child);
  signal.throwIfAborted();
  const summary = await readFile(summaryFile, "utf8").then(
    (text) => JSON.parse(text) as ContractSummary,
    () => undefined,
  );
  // A failed check is the verdict even when the run could not finish; a run that could not finish never passes.
  const exitCode = (summary?.totals.failed ?? 0) > 0 ? 1 : summary?.stopped ? 2 : code === 0 ? 0 : 1;
  return { exitCode, output, reportDir, summary };
}

/**
 * A run that could not start: exit 2, and a summary that says why (`stopped`, with `atStart`), written where the
 * reports go, so that a pipeline reading contract-summary.json, or GitHub's step summary, reads the reason too.
 */
async function cannotStart(reason: string, reportDir: string, env: Readonly<Record<string, string | undefined>>, inherit: boolean): Promise<SuiteRun> {
  const summary: ContractSummary = {
    target: { mode: env.FILE_LIBRARY_BASE_URL ? "live" : "mock", baseUrl: env.FILE_LIBRARY_BASE_URL },
    seed: undefined,
    totals: { passed: 0, failed: 0, skipped: 0, notRun: 0, warnings: 0, requests: 0, connectionRetries: 0 },
    checks: [],
    coverage: { operations: [] },
    retried: [],
    stopped: { reason, atStart: true },
  };
  await mkdir(reportDir, { recursive: true });
  await writeFile(path.join(reportDir, "contract-summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  const markdown = `## File Library contract: could not start\n\n${reason}\n`;
  await writeFile(path.join(reportDir, "contract-coverage.md"), markdown);
  // When the step summary is itself the setting at fault, the reason is in the report folder and the output alone.
  const stepSummary = env.GITHUB_STEP_SUMMARY;
  if (stepSummary && existsSync(path.dirname(path.resolve(stepSummary)))) await appendFile(stepSummary, markdown);
  return { exitCode: 2, output: inherit ? "" : `cannot start: ${reason}\n`, reportDir, summary };
}
