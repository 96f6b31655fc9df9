import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, SerializedError, TestModule, Vitest } from "vitest/node";
import { catalogue, responseChecks } from "../checks/catalogue.ts";
import { selectedChecks } from "./check-selection.ts";
import { failuresOf, scenarioCheckState } from "./check-state.ts";
import { statusCoverage } from "../report/coverage.ts";
import { processSettings, type SuiteSettings } from "./settings.ts";
import { readSuiteDocument } from "./suite-document.ts";
import { SpecOperations } from "../../lib/openapi/spec-operations.ts";
import type { CheckFailureRecord, CheckOutcome, ContractSummary, ExchangeEvidence } from "../report/shapes.ts";
import { junitXml } from "../report/junit.ts";
import { coverageMarkdown, formatSummary } from "../report/summary-format.ts";

/** Prints one line per failed check (with a curl that reproduces it) and per warning, the coverage, and writes the reports. */
export default class SummaryReporter implements Reporter {
  private vitest: Vitest | undefined;
  private readonly reportDir: string;
  constructor(options: { reportDir: string }) {
    this.reportDir = options.reportDir;
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []): Promise<void> {
    const settings = processSettings();
    // Read now, not when the config is: the runner may write the bundled spec after the suite has started. Its
    // operations and statuses are all a summary needs: no validator, so Ajv never loads in vitest's own process.
    const spec = new SpecOperations(readSuiteDocument(settings.specFile));
    const operations = spec.operationIds();
    const provided = this.vitest?.getRootProject().getProvidedContext().run;
    const outcomes: CheckOutcome[] = [];
    const failures: CheckFailureRecord[] = [];
    const exchanges: ExchangeEvidence[] = [];
    const warningsByOperation = new Map<string, string[]>();
    let stopped: string | undefined;
    let diagnosis: string | undefined;

    const tests = testModules.flatMap((module) => [...module.children.allTests()]);
    for (const test of tests) {
      const meta = test.meta();
      exchanges.push(...(meta.exchanges ?? []));
      stopped ??= meta.stopped;
      diagnosis ??= meta.diagnosis;
      failures.push(...(meta.failures ?? []));
    }
    // An error outside every check (a file that cannot load, a set-up hook that throws, an unhandled rejection) skips
    // checks without failing them: the summary must not read as a clean run, so the run is one that could not finish.
    stopped ??= suiteError(testModules, unhandledErrors);
    for (const test of tests) {
      const meta = test.meta();
      const result = test.result();
      const scenario = meta.scenario;
      if (!scenario) continue;
      for (const w of meta.warnings ?? []) {
        const op = w.split(" ")[0]!;
        warningsByOperation.set(op, [...(warningsByOperation.get(op) ?? []), w]);
      }
      // A check's failures, whichever test found them: every write is held to the baseline, in whatever check it is made.
      const own = unique(failuresOf(failures, scenario.check, scenario.operation));
      const state = scenarioCheckState({ ...scenario, testState: result.state, testFailures: meta.failures ?? [], own, notRun: meta.notRun !== undefined });
      // A test that failed with no recorded failure broke in the suite itself: report it as this check's failure.
      const unexplained = state === "failed" && own.length === 0;
      outcomes.push({
        operation: scenario.operation,
        check: scenario.check,
        state,
        note: result.state === "skipped" ? result.note : undefined,
        warnings: (meta.warnings ?? []).filter((w) => w.startsWith(`${scenario.operation} ${scenario.check}:`)),
        requests: meta.exchanges?.length ?? 0,
        durationMs: test.diagnostic()?.duration ?? 0,
        inputs: meta.inputs && Object.entries(meta.inputs).map(([kind, count]) => ({ kind, count })),
        failures: unexplained
          ? [{ problem: result.state === "failed" ? (result.errors[0]?.message ?? "failed") : "failed" }]
          : own.map(withoutCheck),
      });
    }

    const selected = safeSelection(settings);
    for (const check of responseChecks) {
      for (const operation of operations) {
        const own = failures.filter((f) => f.check === check.name && f.operation === operation);
        const inspected = exchanges.some((e) => e.operationId === operation);
        outcomes.push({
          operation,
          check: check.name,
          state: own.length > 0 ? "failed" : selected.has(check.name) && inspected ? "passed" : "skipped",
          note: !selected.has(check.name) ? "not selected (--checks / --exclude-checks)" : inspected ? undefined : "no answer of this operation to inspect",
          warnings: (warningsByOperation.get(operation) ?? []).filter((w) => w.startsWith(`${operation} ${check.name}:`)),
          requests: 0,
          durationMs: 0,
          failures: own.map(withoutCheck),
        });
      }
    }

    const order = new Map<string, number>(catalogue.map((c, i) => [c.name, i]));
    outcomes.sort((a, b) => order.get(a.check)! - order.get(b.check)! || operations.indexOf(a.operation) - operations.indexOf(b.operation));
    // A selected check that did not run is not a pass: the run could not finish, and says which and why.
    stopped = notRunReason(outcomes, stopped);
    const count = (state: CheckOutcome["state"]) => outcomes.filter((c) => c.state === state).length;
    // Every attempt is a request sent: the retried ones, and those of requests that never got an answer.
    const unanswered = failures.flatMap((f) => f.noAnswer?.attempts ?? []);
    const retriedBeforeAnswer = exchanges.reduce((n, e) => n + (e.failedAttempts?.length ?? 0), 0);
    const summary: ContractSummary = {
      target: {
        mode: provided?.target.mode ?? (settings.baseUrl ? "live" : "mock"),
        baseUrl: provided?.target.baseUrl,
      },
      ...(diagnosis ? { diagnosis } : {}),
      seed: provided?.settings.seed,
      totals: {
        passed: count("passed"),
        failed: count("failed"),
        skipped: count("skipped"),
        notRun: count("not run"),
        warnings: outcomes.reduce((n, c) => n + c.warnings.length, 0),
        // The runner's preflight read is a request of the run too.
        requests: settings.requestsBefore + exchanges.length + retriedBeforeAnswer + unanswered.length,
        connectionRetries: retriedBeforeAnswer + unanswered.filter((a) => a.attempt > 1).length,
      },
      checks: outcomes,
      coverage: statusCoverage(spec, exchanges, operations),
      retried: exchanges.filter((e) => e.failedAttempts?.length),
      ...(stopped ? { stopped: { reason: stopped } } : {}),
    };
    mkdirSync(this.reportDir, { recursive: true });
    const markdown = coverageMarkdown(summary);
    const reports: Record<string, string> = {
      "contract-junit.xml": junitXml(summary),
      "contract-summary.json": `${JSON.stringify(summary, null, 2)}\n`,
      "contract-coverage.json": `${JSON.stringify({ coverage: summary.coverage, checks: outcomes.map(({ operation, check, state, note }) => ({ operation, check, state, note })) }, null, 2)}\n`,
      "contract-coverage.md": markdown,
    };
    for (const [file, text] of Object.entries(reports)) writeFileSync(path.join(this.reportDir, file), text);
    if (settings.stepSummaryFile) appendFileSync(settings.stepSummaryFile, markdown);
    process.stdout.write(formatSummary(summary, { reportDir: this.reportDir, files: Object.keys(reports), stepSummaryFile: settings.stepSummaryFile }));
    performance.mark("suite:report");
  }
}

/** The first error of the run outside every check, as a reason the run could not finish; undefined when there is none. */
function suiteError(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): string | undefined {
  const errors = [...testModules.flatMap((module) => [module, ...module.children.allSuites()].flatMap((suite) => suite.errors())), ...unhandledErrors];
  const first = errors[0];
  return first && `the suite itself failed: ${first.message}`;
}

/**
 * Why the run could not finish, naming every check that did not run and its reason (once, when it is why the run
 * stopped); `stopped` as it was when every check ran.
 */
function notRunReason(outcomes: CheckOutcome[], stopped: string | undefined): string | undefined {
  const notRun = outcomes.filter((o) => o.state === "not run");
  if (notRun.length === 0) return stopped;
  const byReason = new Map<string, string[]>();
  for (const o of notRun) {
    const reason = (o.note ?? "").replace(/^not run: /, "");
    byReason.set(reason, [...(byReason.get(reason) ?? []), `${o.operation} ${o.check}`]);
  }
  const groups = [...byReason].map(([reason, checks]) => (reason === stopped ? checks.join(", ") : `${checks.join(", ")} (${reason})`));
  const list = `${notRun.length} selected check${notRun.length === 1 ? "" : "s"} did not run: ${groups.join("; ")}`;
  return stopped ? `${stopped} ${list}` : list;
}

/** The failures, each problem once (several tests may find the same). */
const unique = (list: CheckFailureRecord[]) => list.filter((f, i) => list.findIndex((g) => g.problem === f.problem) === i);

/** A failure as an outcome lists it: the check and operation are the outcome's own. */
const withoutCheck = ({ check: _check, operation: _operation, ...rest }: CheckFailureRecord) => rest;

function safeSelection(settings: SuiteSettings): Set<string> {
  try {
    return selectedChecks(settings);
  } catch {
    return new Set(catalogue.map((c) => c.name));
  }
}
