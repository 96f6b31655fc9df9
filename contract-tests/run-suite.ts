import { existsSync } from "node:fs";
import { appendFile, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { checkServer } from "./engine/check-server.ts";
import { defaultSpecFile } from "./locations.ts";
import type { ContractSummary } from "./report/shapes.ts";
import { colourEnabled } from "./run/paint.ts";
import {
  processEnvironment,
  settingsEnvironment,
  type SuiteSettings,
  type SuiteSettingsInput,
} from "./run/settings.ts";
import { CannotStartError, checkSettings, checkTarget, type CheckedSettings } from "./runner/start.ts";
import type { StartupRead } from "./run/startup-read-record.ts";
import { writeWhole } from "./report/write-whole.ts";

/**
 * How to run the suite: each setting as an option, or else from `env` (FILE_LIBRARY_BASE_URL and the rest; see
 * `file-library-contract --help`). Options win over the environment.
 */
export interface SuiteOptions extends Omit<SuiteSettingsInput, "mockUrl" | "requestsBefore"> {
  /** The environment the settings not given as options come from (default: process.env). */
  env?: Record<string, string | undefined> | undefined;
  /** "inherit" prints the suite's output as it runs; "capture" returns it in `output` (default). */
  output?: "inherit" | "capture" | undefined;
  /** Working directory of the run (default: process.cwd()). */
  cwd?: string | undefined;
  /**
   * Stops the run: the check running is abandoned and runSuite rejects with the signal's reason. runSuite installs
   * no signal handler of its own; a host that wants Ctrl-C to stop the suite aborts this from its handler.
   */
  signal?: AbortSignalLike | undefined;
  /**
   * What the run's pace and the 429s it waits out are timed by (default: real time). The caps still hold, measured on
   * this clock: a test gives a virtual clock, whose sleeps end at once, to prove a rate-limited run without waiting it.
   */
  waitClock?: { now(): number; sleep(ms: number): Promise<void> } | undefined;
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

/** Runs the contract suite once, in this process (contract-tests/engine/), against the target the options and the environment name. */
export function runSuite(options: SuiteOptions = {}): Promise<SuiteRun> {
  return startSuite(options);
}

/** For startSuite: when the bundled spec and the target are ready, and when the suite's output may be shown. */
export interface SuiteStart {
  /** Resolves once the bundled spec is written: the checks start then (a rejection is left to `release`). */
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
 * the checks start once the spec is bundled and the target ready, their output held back until `release`. When
 * `release` rejects, the run is stopped and startSuite rejects with the same reason.
 */
export async function startSuite(options: SuiteOptions, start?: SuiteStart, hooks: SuiteHooks = {}): Promise<SuiteRun> {
  const outer = options.signal;
  if (outer?.aborted) throw outer.reason;
  // A signal of our own for the engine, linked to the caller's, so that any signal-like object works.
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", forward, { once: true });
  try {
    return await run(options, controller.signal, start, hooks);
  } finally {
    outer?.removeEventListener("abort", forward);
  }
}

async function run(
  options: SuiteOptions,
  signal: AbortSignal,
  start: SuiteStart | undefined,
  hooks: SuiteHooks,
): Promise<SuiteRun> {
  const {
    env: baseEnv = processEnvironment(),
    output: _output,
    cwd: givenCwd,
    signal: _signal,
    waitClock,
    ...given
  } = options;
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
      ({ requestsBefore, startupRead } = await checkTarget(
        checked.live,
        checked.settings,
        checked.specFile ?? defaultSpecFile,
        waitClock,
      ));
    }
  } catch (error) {
    if (!(error instanceof CannotStartError)) throw error;
    return cannotStart(
      error.message,
      path.resolve(cwd, given.reportDir ?? env.FILE_LIBRARY_REPORT_DIR ?? "reports"),
      env,
      options.output === "inherit",
    );
  }
  const { settings } = checked;
  await hooks.started?.(checked);
  const reportDir = path.resolve(cwd, settings.reportDir ?? "reports");
  const engineSettings = { ...settings, specFile: settings.specFile ?? defaultSpecFile, reportDir, requestsBefore };
  return runEngine(options, signal, start, { settings: engineSettings, startupRead, env });
}

/** What the engine is given by the runner: the settings as checked, the start-up read, and the environment (for colours). */
interface Checked {
  settings: SuiteSettings & { reportDir: string };
  startupRead: StartupRead | undefined;
  env: Readonly<Record<string, string | undefined>>;
}

/** Runs the engine in this process with the settings as checked: once the target is ready, its output held back until released. */
async function runEngine(
  options: SuiteOptions,
  signal: AbortSignal,
  start: SuiteStart | undefined,
  { settings, startupRead, env }: Checked,
): Promise<SuiteRun> {
  const { reportDir } = settings;
  // A summary left by an earlier run must not pass for this one's.
  await rm(path.join(reportDir, "contract-summary.json"), { force: true });
  const inherit = options.output === "inherit";
  // As a terminal shows them: colours only where the output is one (or FORCE_COLOR says so).
  const colour = colourEnabled(env, inherit && process.stdout.isTTY === true);
  let held: string[] | undefined = start && inherit ? [] : undefined;
  const output = inherit ? (text: string) => (held ? held.push(text) : process.stdout.write(text)) : undefined;
  // Stopped by the caller's signal, or by a release that failed.
  const stop = new AbortController();
  const forward = () => stop.abort(signal.reason);
  signal.addEventListener("abort", forward, { once: true });
  try {
    const running = (async () => {
      const [, target] = await Promise.all([start?.spec, start?.target]);
      stop.signal.throwIfAborted();
      return checkServer(
        { ...settings, mockUrl: target?.mockUrl ?? settings.mockUrl },
        { output, colour, signal: stop.signal, startupRead, waitClock: options.waitClock },
      );
    })();
    if (start) {
      running.catch(() => {});
      try {
        await start.release;
      } catch (error) {
        stop.abort(error);
        await running.catch(() => {});
        throw error;
      }
      for (const text of held ?? []) process.stdout.write(text);
      held = undefined;
    }
    const { exitCode, summary, output: printed } = await running;
    return { exitCode, output: inherit ? "" : printed, reportDir, summary };
  } finally {
    signal.removeEventListener("abort", forward);
  }
}

/**
 * A run that could not start: exit 2, and a summary that says why (`stopped`, with `atStart`), written where the
 * reports go, so that a pipeline reading contract-summary.json, or GitHub's step summary, reads the reason too.
 */
async function cannotStart(
  reason: string,
  reportDir: string,
  env: Readonly<Record<string, string | undefined>>,
  inherit: boolean,
): Promise<SuiteRun> {
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
  await writeWhole(path.join(reportDir, "contract-summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  const markdown = `## File Library contract: could not start\n\n${reason}\n`;
  await writeWhole(path.join(reportDir, "contract-coverage.md"), markdown);
  // When the step summary is itself the setting at fault, the reason is in the report folder and the output alone.
  const stepSummary = env.GITHUB_STEP_SUMMARY;
  if (stepSummary && existsSync(path.dirname(path.resolve(stepSummary)))) await appendFile(stepSummary, markdown);
  return { exitCode: 2, output: inherit ? "" : `cannot start: ${reason}\n`, reportDir, summary };
}
