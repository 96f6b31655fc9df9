import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { catalogue, responseChecks } from "../checks/catalogue.ts";
import { selectedChecks } from "./check-selection.ts";
import { checkRunState, failuresOf, type CheckRun } from "./check-state.ts";
import { statusCoverage } from "../report/coverage.ts";
import type { SuiteSettings } from "./settings.ts";
import { startupStatuses } from "./startup-read.ts";
import type { StartupRead } from "./startup-read-record.ts";
import type { Target } from "../http/target.ts";
import type { SpecOperations } from "../../lib/openapi/spec-operations.ts";
import type { CheckFailureRecord, CheckOutcome, ContractSummary, ExchangeEvidence } from "../report/shapes.ts";
import { junitXml } from "../report/junit.ts";
import { coverageMarkdown, formatSummary } from "../report/summary-format.ts";
import { writeWholeSync } from "../report/write-whole.ts";

/** What a run's summary is made of, besides its checks. */
export interface RunFacts {
  settings: SuiteSettings;
  /** The bundled spec's operations and statuses: all a summary needs. */
  spec: SpecOperations;
  target: Pick<Target, "mode" | "baseUrl"> | undefined;
  seed: number | undefined;
  /** The runner's start-up read, whose answers the coverage counts. */
  startupRead?: StartupRead | undefined;
  /** An error outside every check (the engine broke between checks): the run could not finish. */
  suiteError?: string | undefined;
}

/**
 * The run's summary (contract-summary.json) from what each scenario check left: their states, the response checks'
 * per operation, the totals, the coverage, and why the run stopped, if it did. Pure: the engine writes and prints it.
 */
export function summaryOfRun(runs: readonly CheckRun[], facts: RunFacts): ContractSummary {
  const { settings, spec } = facts;
  const operations = spec.operationIds();
  const outcomes: CheckOutcome[] = [];
  const failures: CheckFailureRecord[] = [];
  const exchanges: ExchangeEvidence[] = [];
  const warningsByOperation = new Map<string, string[]>();
  let stopped: string | undefined;
  let diagnosis: string | undefined;

  for (const { evidence } of runs) {
    exchanges.push(...evidence.exchanges);
    stopped ??= evidence.stopped;
    diagnosis ??= evidence.diagnosis;
    failures.push(...evidence.failures);
  }
  // An error outside every check skips checks without failing them: the summary must not read as a clean run.
  stopped ??= facts.suiteError && `the suite itself failed: ${facts.suiteError}`;
  for (const run of runs) {
    const { evidence } = run;
    const { scenario } = evidence;
    for (const w of evidence.warnings) {
      const op = w.split(" ")[0]!;
      warningsByOperation.set(op, [...(warningsByOperation.get(op) ?? []), w]);
    }
    // A check's failures, whichever check found them: every write is held to the baseline, in whatever check it is made.
    const own = unique(failuresOf(failures, scenario.check, scenario.operation));
    const state = checkRunState(run, own);
    // A check that failed with no recorded failure broke in the suite itself: report it as this check's failure.
    const unexplained = state === "failed" && own.length === 0;
    outcomes.push({
      operation: scenario.operation,
      check: scenario.check,
      state,
      note: run.state === "skipped" ? run.note : undefined,
      warnings: evidence.warnings.filter((w) => w.startsWith(`${scenario.operation} ${scenario.check}:`)),
      requests: evidence.exchanges.length,
      durationMs: run.durationMs,
      inputs: evidence.inputs && Object.entries(evidence.inputs).map(([kind, count]) => ({ kind, count })),
      failures: unexplained ? [{ problem: run.error ?? "failed" }] : own.map(withoutCheck),
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
        note: !selected.has(check.name)
          ? "not selected (--checks / --exclude-checks)"
          : inspected
            ? undefined
            : "no answer of this operation to inspect",
        warnings: (warningsByOperation.get(operation) ?? []).filter((w) => w.startsWith(`${operation} ${check.name}:`)),
        requests: 0,
        durationMs: 0,
        failures: own.map(withoutCheck),
      });
    }
  }

  const order = new Map<string, number>(catalogue.map((c, i) => [c.name, i]));
  outcomes.sort(
    (a, b) =>
      order.get(a.check)! - order.get(b.check)! || operations.indexOf(a.operation) - operations.indexOf(b.operation),
  );
  // A selected check that did not run is not a pass: the run could not finish, and says which and why.
  stopped = notRunReason(outcomes, stopped);
  const count = (state: CheckOutcome["state"]) => outcomes.filter((c) => c.state === state).length;
  // Every attempt is a request sent: the retried ones, and those of requests that never got an answer.
  const unanswered = failures.flatMap((f) => f.noAnswer?.attempts ?? []);
  const retriedBeforeAnswer = exchanges.reduce((n, e) => n + (e.failedAttempts?.length ?? 0), 0);
  return {
    target: { mode: facts.target?.mode ?? (settings.baseUrl ? "live" : "mock"), baseUrl: facts.target?.baseUrl },
    ...(diagnosis ? { diagnosis } : {}),
    seed: facts.seed,
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
    coverage: statusCoverage(spec, [...exchanges, ...startupStatuses(facts.startupRead)], operations),
    retried: exchanges.filter((e) => e.failedAttempts?.length),
    ...(stopped ? { stopped: { reason: stopped } } : {}),
  };
}

/**
 * Writes the run's reports (JUnit, JSON, Markdown coverage) into `reportDir`, appends the Markdown to the step
 * summary file if one is set, and returns the summary text the run prints, which names them.
 */
export function writeReports(summary: ContractSummary, reportDir: string, stepSummaryFile: string | undefined): string {
  mkdirSync(reportDir, { recursive: true });
  const markdown = coverageMarkdown(summary);
  const reports: Record<string, string> = {
    "contract-junit.xml": junitXml(summary),
    "contract-summary.json": `${JSON.stringify(summary, null, 2)}\n`,
    "contract-coverage.json": `${JSON.stringify({ coverage: summary.coverage, checks: summary.checks.map(({ operation, check, state, note }) => ({ operation, check, state, note })) }, null, 2)}\n`,
    "contract-coverage.md": markdown,
  };
  for (const [file, text] of Object.entries(reports)) writeWholeSync(path.join(reportDir, file), text);
  if (stepSummaryFile) appendFileSync(stepSummaryFile, markdown);
  return formatSummary(summary, { reportDir, files: Object.keys(reports), stepSummaryFile });
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
  const groups = [...byReason].map(([reason, checks]) =>
    reason === stopped ? checks.join(", ") : `${checks.join(", ")} (${reason})`,
  );
  const list = `${notRun.length} selected check${notRun.length === 1 ? "" : "s"} did not run: ${groups.join("; ")}`;
  return stopped ? `${stopped} ${list}` : list;
}

/** The failures, each problem once (several tests may find the same). */
const unique = (list: CheckFailureRecord[]) =>
  list.filter((f, i) => list.findIndex((g) => g.problem === f.problem) === i);

/** A failure as an outcome lists it: the check and operation are the outcome's own. */
const withoutCheck = ({ check: _check, operation: _operation, ...rest }: CheckFailureRecord) => rest;

function safeSelection(settings: SuiteSettings): Set<string> {
  try {
    return selectedChecks(settings);
  } catch {
    return new Set(catalogue.map((c) => c.name));
  }
}
