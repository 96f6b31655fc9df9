import { scenarioChecks } from "../checks/catalogue.ts";
import type { OperationId } from "../checks/types.ts";
import { MOCK_API_KEY, type Target } from "../http/target.ts";
import type { ContractSummary } from "../report/shapes.ts";
import { selectedChecks } from "../run/check-selection.ts";
import type { CheckRun } from "../run/check-state.ts";
import { checkDeadlineMs } from "../run/deadline.ts";
import { CheckEvidence } from "../run/evidence.ts";
import { exampleFileId } from "../run/example-file-id.ts";
import { painter } from "../run/paint.ts";
import { ProgressLines } from "../run/progress-lines.ts";
import { createRunContext, type RunContext } from "../run/run-context.ts";
import { runCheck } from "../run/run-checks.ts";
import { summaryOfRun, writeReports } from "../run/run-summary.ts";
import type { SuiteSettings } from "../run/settings.ts";
import { loadSuiteSpec } from "../run/spec.ts";
import type { StartupRead } from "../run/startup-read-record.ts";
import { liveTarget } from "../run/target.ts";
import { checkOrder } from "./check-order.ts";
import { withDeadline, type EngineClock } from "./deadline-race.ts";
import type { Clock as WaitClock } from "../http/wait-clock.ts";

/** Where a run's output goes: each piece of text as it is printed. */
export type OutputSink = (text: string) => void;

/** What the engine is given besides the settings. */
export interface EngineOptions {
  /** Where the progress lines and the summary go (default: nowhere; the run's `output` holds them all the same). */
  output?: OutputSink | undefined;
  /** Colours in the output (default none). */
  colour?: boolean | undefined;
  /** Stops the run: the check running is abandoned, and checkServer rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** The clock of the durations and of each check's deadline (default: the real one). */
  clock?: EngineClock | undefined;
  /** The runner's start-up read of the live server, for the first check to judge (runner/start.ts). */
  startupRead?: StartupRead | undefined;
  /** What the run's pace and its 429s are waited out by (default: real time; a test's virtual clock waits none). */
  waitClock?: WaitClock | undefined;
}

/** The outcome of one run of the engine. */
export interface EngineRun {
  /** 0 every selected check ran and passed; 1 one failed; 2 the run could not finish (`summary.stopped` says why). */
  exitCode: 0 | 1 | 2;
  summary: ContractSummary;
  /** Everything the run printed. */
  output: string;
}

const realClock: EngineClock = {
  now: () => performance.now(),
  setTimeout: (f, ms) => setTimeout(f, ms),
  clearTimeout: (t) => clearTimeout(t as NodeJS.Timeout),
};

/**
 * Checks one server against the bundled spec, in this process: the live server the settings name, or the mock at
 * `settings.mockUrl`. Each scenario check runs in turn (in catalogue order, or drawn from the seed), every answer goes
 * through the response checks, each check within its deadline (run/deadline.ts); then the reports are written to
 * `settings.reportDir` (default `reports`) and the summary printed. The settings are taken as given: the runners
 * (runSuite, the CLI) check them first (runner/start.ts).
 */
export async function checkServer(settings: SuiteSettings, options: EngineOptions = {}): Promise<EngineRun> {
  performance.mark("suite:setup");
  let output = "";
  const print = (text: string) => {
    output += text;
    options.output?.(text);
  };
  const seed = settings.seed ?? Math.floor(Math.random() * 2 ** 31);
  const paint = painter(options.colour ?? false);
  print(
    `contract: seed ${seed} (replay with --seed ${seed}${settings.shuffle ? ", checks in an order drawn from it" : ""})\n`,
  );
  const runs: CheckRun[] = [];
  let context: RunContext | undefined;
  let suiteError: string | undefined;
  try {
    const spec = loadSuiteSpec(settings.specFile);
    performance.mark("suite:spec-ready");
    context = createRunContext(
      {
        settings: { ...settings, seed },
        target: targetOf(settings, spec),
        startupRead: options.startupRead,
        waitClock: options.waitClock,
      },
      spec,
    );
    const lines = new ProgressLines(paint);
    for await (const run of runChecks(context, options)) {
      runs.push(run);
      print(lines.ended(run));
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const message = error instanceof Error ? error.message : String(error);
    suiteError = context ? context.redact(message) : message;
  } finally {
    // Closing waits for a request in flight: a stopped run does not wait for it (it ends by its own timeout).
    const closed = context?.transport.close().catch(() => {});
    if (!options.signal?.aborted) await closed;
  }
  const spec = context?.spec ?? loadSuiteSpec(settings.specFile);
  const summary = summaryOfRun(runs, {
    settings,
    spec,
    target: context?.target,
    seed,
    suiteError,
    startupRead: options.startupRead,
  });
  print(writeReports(summary, settings.reportDir ?? "reports", settings.stepSummaryFile));
  performance.mark("suite:report");
  const exitCode = summary.totals.failed > 0 ? 1 : summary.stopped ? 2 : 0;
  return { exitCode, summary, output };
}

/** The run's target: the live server the settings name, or the mock at `mockUrl`. */
function targetOf(settings: SuiteSettings, spec: ReturnType<typeof loadSuiteSpec>): Target {
  const live = liveTarget(settings);
  if (live) return live;
  if (!settings.mockUrl) {
    throw new Error(
      "No server to check: set FILE_LIBRARY_BASE_URL (or --base-url) for a live server; in the kit's repo `npm run contract` starts the Prism mock.",
    );
  }
  // Prism answers every id alike; the spec's own example id keeps the requests realistic.
  return {
    mode: "mock",
    baseUrl: settings.mockUrl,
    apiKey: MOCK_API_KEY,
    fileId: exampleFileId(spec.document),
    writeChecks: true,
  };
}

/** Runs each check of the run in its order, each within its deadline; yields what each left as it ends. */
async function* runChecks(context: RunContext, options: EngineOptions): AsyncGenerator<CheckRun> {
  const { settings } = context;
  const clock = options.clock ?? realClock;
  const selected = selectedChecks(settings);
  const deadlineMs = checkDeadlineMs(settings);
  const operations = context.spec.operationIds() as OperationId[];
  for (const { check, operationId } of checkOrder(scenarioChecks, operations, settings)) {
    options.signal?.throwIfAborted();
    const evidence = new CheckEvidence({ check: check.name, operation: operationId });
    const started = clock.now();
    let ending: Omit<CheckRun, "evidence" | "durationMs">;
    try {
      ending = await withDeadline(
        runCheck(context, check, operationId, evidence, selected),
        deadlineMs,
        clock,
        options.signal,
      );
    } catch (error) {
      options.signal?.throwIfAborted();
      // The check broke (or ran past its deadline): it fails, with the reason, and the run goes on.
      ending = { state: "failed", error: context.redact(error instanceof Error ? error.message : String(error)) };
    }
    yield { evidence, ...ending, durationMs: clock.now() - started };
  }
}
