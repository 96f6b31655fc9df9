import type { CheckEvidence } from "./evidence.ts";
import type { CheckFailureRecord, CheckOutcome } from "../report/shapes.ts";

/** What decides a scenario check's state on one operation: how its run ended, and the failures recorded under its name. */
export interface ScenarioEnding {
  check: string;
  operation: string;
  /** How the check ended: "failed" whenever any check failed during it, its own or another's. */
  runState: "passed" | "failed" | "skipped" | "pending";
  /** The failures its run recorded, of every check (the response checks', and a write's held to the baseline). */
  runFailures: readonly CheckFailureRecord[];
  /** The failures recorded under this check and operation, in whichever run they were found. */
  own: readonly CheckFailureRecord[];
  notRun: boolean;
}

/**
 * A scenario check's state, the one rule both the progress lines and the summary follow: failed by failures of its
 * own (in whichever run they were found) or by a run that failed with none recorded (the suite itself broke there);
 * a failure of another check in its run is that check's, not its.
 */
export function scenarioCheckState(ending: ScenarioEnding): CheckOutcome["state"] {
  const unexplained = ending.runState === "failed" && ending.runFailures.length === 0;
  if (ending.own.length > 0 || unexplained) return "failed";
  if (ending.notRun) return "not run";
  return ending.runState === "skipped" ? "skipped" : "passed";
}

/** The failures recorded under `check` on `operation`. */
export const failuresOf = (
  failures: readonly CheckFailureRecord[],
  check: string,
  operation: string,
): CheckFailureRecord[] => failures.filter((f) => f.check === check && f.operation === operation);

/** What one scenario check on one operation left, as plain data: the progress lines and the summary read it. */
export interface CheckRun {
  /** Its evidence (run/evidence.ts): exchanges, failures of every check found during it, warnings, inputs. */
  evidence: Pick<
    CheckEvidence,
    "scenario" | "exchanges" | "warnings" | "failures" | "inputs" | "stopped" | "notRun" | "diagnosis"
  >;
  /** How it ended: "failed" whenever any check failed during it (or it broke: `error`). */
  state: "passed" | "failed" | "skipped";
  /** Why it was skipped (or did not run). */
  note?: string | undefined;
  /** Why it failed with no failure recorded: the engine broke there, or the check ran past its deadline. */
  error?: string | undefined;
  durationMs: number;
}

/** The state of one check's run, given the failures recorded under its name (see scenarioCheckState). */
export const checkRunState = (run: CheckRun, own: readonly CheckFailureRecord[]): CheckOutcome["state"] =>
  scenarioCheckState({
    ...run.evidence.scenario,
    runState: run.state,
    runFailures: run.evidence.failures,
    own,
    notRun: run.evidence.notRun !== undefined,
  });
