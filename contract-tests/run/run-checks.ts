import fc from "fast-check";
import { judgeResponse, unexpected } from "../checks/judge-answer.ts";
import { requirementsOn, type OperationId, type Scenario, type ScenarioCheck } from "../checks/types.ts";
import { driftAfter, takeBaseline, type FileBaseline } from "../checks/update-changes-only-its-fields.ts";
import { evidenceOf, type CheckEvidence } from "./evidence.ts";
import { allRefused } from "../http/no-answer.ts";
import { exchange, ExchangeFailedError, type Exchange } from "../http/exchange.ts";
import { RateLimitedError } from "../http/rate-limits.ts";
import { RequestBudgetError, type RunContext } from "./run-context.ts";
import { judgeStartupRead } from "./startup-read.ts";
import type { CheckFailureRecord } from "../report/shapes.ts";
// Shrinking a failure found by a generated input may take this many requests, and only while the budget lasts:
// on a live server each one is a real request, and the checks after this one need theirs.
const SHRINK_REQUESTS = 30;

/** Ends a scenario as failed; carries the exchange that showed it. */
class ScenarioFailure extends Error {
  constructor(
    readonly problem: string,
    readonly exchange?: Exchange,
  ) {
    super(problem);
  }
}

/** Ends a scenario as skipped. */
class ScenarioSkip extends Error {}

// Each run's baseline, taken before its first write (one run context per run; a context that is gone takes its entry along).
const baselines = new WeakMap<RunContext, Promise<FileBaseline>>();

/** Whether the run takes the file's baseline before its first write: a live run with write checks. */
const takesBaseline = (run: RunContext) => run.target.mode === "live" && run.target.writeChecks;

/** Whether every write of the run is held to the file as the run found it (update_changes_only_its_fields). */
const guardsWrites = (run: RunContext, selected: Set<string>) =>
  takesBaseline(run) && selected.has("update_changes_only_its_fields");

/** How one scenario check ended on one operation, before the failures recorded under its name decide its state. */
export interface CheckEnding {
  /** "failed" whenever any check failed during it, its own or another's (run/check-state.ts). */
  state: "passed" | "failed" | "skipped";
  /** Why it was skipped (or did not run). */
  note?: string | undefined;
}

/**
 * Runs one scenario check on one operation, its evidence collected in `evidence`; every answer also goes through the
 * response checks. Resolves with how it ended; it rejects only on an error of the engine itself.
 */
export async function runCheck(
  run: RunContext,
  check: ScenarioCheck,
  operationId: OperationId,
  evidence: CheckEvidence,
  selected: Set<string>,
): Promise<CheckEnding> {
  const { target, spec, rateLimiter } = run;
  const skip = (note: string): CheckEnding => ({ state: "skipped", note });
  if (!selected.has(check.name)) return skip("not selected (--checks / --exclude-checks)");
  const needs = requirementsOn(check, operationId);
  if (needs.includes("state") && target.mode === "mock") {
    return skip("skipped against the mock: it keeps no state, so it cannot show this");
  }
  if (needs.includes("writes") && !target.writeChecks) {
    return skip("read-only run: set FILE_LIBRARY_WRITE_CHECKS=1 to check updates of the file");
  }
  // Selected and applicable from here on: a check that does not run now makes the run exit 2 (it cannot pass unchecked).
  const notRun = (reason: string) => {
    evidence.notRun = reason;
    return skip(`not run: ${reason}`);
  };
  if (rateLimiter.stoppedBecause) return notRun(rateLimiter.stoppedBecause);
  // The runner's start-up read got the run's first answer: the first check to run judges it, as any other.
  judgeStartupRead(run, selected, evidence, (ex) => inspect(run, selected, evidence, ex));

  // What the check was doing last, for a report of an error it did not expect.
  let doing = "before its first request";
  const answered = (ex: Exchange) => {
    evidence.exchange(ex);
    inspect(run, selected, evidence, ex);
  };
  const scenario: Scenario = {
    operationId,
    context: run,
    target,
    spec,
    async send(request) {
      const writes =
        (request.operationId ?? operationId) === "updateFile" && request.fileId === target.fileId && takesBaseline(run);
      if (writes && !baselines.has(run)) baselines.set(run, takeBaseline(scenario));
      const baseline = writes && guardsWrites(run, selected) ? await baselines.get(run) : undefined;
      doing = `sending ${request.operationId ?? operationId} for ${JSON.stringify(request.fileId)}`;
      const ex = await exchange(run, { operationId, ...request }, answered);
      answered(ex);
      if (baseline) await judgeWrite(scenario, baseline, ex, evidence);
      doing = `judging the answer HTTP ${ex.status} to ${ex.request.method} ${ex.request.path}`;
      return ex;
    },
    record: (kind) => evidence.input(kind),
    fail(problem, ex) {
      throw new ScenarioFailure(problem, ex);
    },
    warn: (message) => warn(run, evidence, check.name, operationId, message),
    skip(reason) {
      throw new ScenarioSkip(reason);
    },
    forAll: (arbitrary, property) => forAllInputs(run, arbitrary, property),
    baseline: () => baselines.get(run),
  };

  try {
    await check.run(scenario);
  } catch (error) {
    if (error instanceof ScenarioSkip) return skip(error.message);
    // Not a contract failure: the run cannot finish (exit 2), and every later check is not run, with the reason.
    if (error instanceof RequestBudgetError) return notRun(error.message);
    if (error instanceof RateLimitedError) {
      evidence.stopped = error.message;
      return notRun(error.message);
    }
    // Nothing listens any more: the server went away (or never answered at all); what it did not answer is not judged.
    if (error instanceof ExchangeFailedError && allRefused(error.evidence.attempts))
      return notRun(`the server stopped accepting connections: ${error.message}`);
    const failure = failureOf(error, doing);
    evidence.failure({ check: check.name, operation: operationId, ...failure, problem: run.redact(failure.problem) });
  }
  return { state: evidence.failures.length > 0 ? "failed" : "passed" };
}
/**
 * Holds a write to the baseline (update_changes_only_its_fields, whichever check is running). A read that cannot be
 * sent (the budget is spent, the run is rate-limited, no answer) leaves the write unjudged: the write itself was.
 */
async function judgeWrite(
  scenario: Scenario,
  baseline: FileBaseline,
  write: Exchange,
  evidence: CheckEvidence,
): Promise<void> {
  let drift;
  try {
    drift = await driftAfter(scenario, baseline, write);
  } catch (error) {
    if (
      error instanceof RequestBudgetError ||
      error instanceof RateLimitedError ||
      error instanceof ExchangeFailedError
    )
      return;
    throw error;
  }
  if (drift)
    evidence.failure({
      check: "update_changes_only_its_fields",
      operation: "updateFile",
      problem: drift.exchange.redact(drift.problem),
      evidence: evidenceOf(drift.exchange),
    });
}

/**
 * Runs a property over generated inputs, seeded. A failure is shrunk to a smaller input within SHRINK_REQUESTS
 * requests and the budget (the report says when shrinking stopped early). A request that got no answer, a spent
 * budget or a rate-limited run ends the generation without counting as a counterexample.
 */
async function forAllInputs<T>(
  run: RunContext,
  arbitrary: fc.Arbitrary<T>,
  property: (value: T) => Promise<void>,
): Promise<void> {
  let stop: Error | undefined;
  let failedAt: number | undefined;
  let shrinkingStopped: string | undefined;
  const { budget } = run;
  const { seed, fuzzRuns } = run.settings;
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (value) => {
      // Once stopped, every input "passes": fast-check then keeps the smallest failing input it has.
      if (stop || shrinkingStopped) return;
      if (failedAt !== undefined && budget.sent - failedAt >= SHRINK_REQUESTS) {
        shrinkingStopped = `after ${SHRINK_REQUESTS} requests of shrinking`;
        return;
      }
      try {
        await property(value);
      } catch (error) {
        if (
          error instanceof RequestBudgetError ||
          error instanceof RateLimitedError ||
          error instanceof ExchangeFailedError
        ) {
          stop = error;
          if (failedAt !== undefined)
            shrinkingStopped =
              error instanceof RequestBudgetError ? `the request budget of ${budget.limit} is spent` : error.message;
          return;
        }
        failedAt ??= budget.sent;
        throw error;
      }
    }),
    { seed, numRuns: fuzzRuns },
  );
  if (!details.failed) {
    if (stop) throw stop;
    return;
  }
  const cause = details.errorInstance;
  const shrunk = fc.stringify(details.counterexample?.[0]);
  const problem = cause instanceof ScenarioFailure ? cause.problem : String(cause);
  const early = shrinkingStopped ? `; shrinking stopped early: ${shrinkingStopped}` : "";
  throw new ScenarioFailure(
    `${problem} (input after shrinking: ${shrunk}${early}; seed ${seed}, replay with --seed ${seed})`,
    cause instanceof ScenarioFailure ? cause.exchange : undefined,
  );
}

/**
 * What a scenario's error shows: the failure and its evidence, or no answer at all. Any other error is reported as
 * the check's, with what it was doing, in one line: an answer the check could not handle is a finding, not a crash.
 */
function failureOf(error: unknown, doing: string): Omit<CheckFailureRecord, "check" | "operation"> {
  if (error instanceof ExchangeFailedError) return { problem: error.message, noAnswer: error.evidence };
  if (error instanceof ScenarioFailure)
    return { problem: error.problem, evidence: error.exchange && evidenceOf(error.exchange) };
  return { problem: unexpected(error, doing) };
}

/** Applies every selected response check to an answer (429s included), recording failures and warnings. */
function inspect(run: RunContext, selected: Set<string>, evidence: CheckEvidence, ex: Exchange): void {
  const { diagnosis, verdicts } = judgeResponse(ex, run.spec, run.settings, (name) => selected.has(name));
  if (diagnosis) evidence.diagnose(diagnosis);
  for (const { check, failures, warnings } of verdicts) {
    for (const problem of failures)
      evidence.failure({ check, operation: ex.operationId, problem: ex.redact(problem), evidence: evidenceOf(ex) });
    for (const message of warnings) warn(run, evidence, check, ex.operationId, message);
  }
}

function warn(run: RunContext, evidence: CheckEvidence, check: string, operation: string, message: string): void {
  const shown = run.redact(message);
  // Printed once, by the summary, with the others.
  evidence.warning(`${operation} ${check}: ${shown}`);
}
