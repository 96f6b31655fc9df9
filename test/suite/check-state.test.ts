import { describe, expect, it } from "vitest";
import {
  checkRunState,
  failuresOf,
  scenarioCheckState,
  type CheckRun,
  type ScenarioEnding,
} from "../../contract-tests/run/check-state.ts";
import type { CheckFailureRecord } from "../../contract-tests/report/shapes.ts";

const failure = (check: string, operation = "getFile"): CheckFailureRecord => ({
  check,
  operation,
  problem: `${check} failed`,
});
const ending = (fields: Partial<ScenarioEnding>): ScenarioEnding => ({
  check: "positive_data_acceptance",
  operation: "getFile",
  runState: "passed",
  runFailures: [],
  own: [],
  notRun: false,
  ...fields,
});

describe("scenarioCheckState: one rule for the progress line and the summary", () => {
  it("is not failed by another check's failure in its run: the run failed, the check passed", () => {
    const schema = failure("response_schema_conformance");
    expect(scenarioCheckState(ending({ runState: "failed", runFailures: [schema] }))).toBe("passed");
  });

  it("is skipped when its run skipped, even with another check's failure in it", () => {
    expect(
      scenarioCheckState(ending({ runState: "skipped", runFailures: [failure("response_schema_conformance")] })),
    ).toBe("skipped");
  });

  it("is failed by a failure of its own, found in whichever run; or by a run that failed with nothing recorded", () => {
    expect(scenarioCheckState(ending({ own: [failure("positive_data_acceptance")] }))).toBe("failed");
    expect(scenarioCheckState(ending({ runState: "skipped", own: [failure("positive_data_acceptance")] }))).toBe(
      "failed",
    );
    expect(scenarioCheckState(ending({ runState: "failed" }))).toBe("failed");
  });

  it("is not run when it did not run, unless it failed", () => {
    expect(scenarioCheckState(ending({ runState: "skipped", notRun: true }))).toBe("not run");
    expect(
      scenarioCheckState(ending({ runState: "skipped", notRun: true, own: [failure("positive_data_acceptance")] })),
    ).toBe("failed");
  });

  it("failuresOf picks the failures of one check on one operation", () => {
    const list = [failure("a"), failure("a", "updateFile"), failure("b")];
    expect(failuresOf(list, "a", "getFile")).toEqual([list[0]]);
  });

  it("checkRunState reads a run's ending from its evidence: its state, its failures, whether it ran", () => {
    const run = (state: CheckRun["state"], fields: Partial<CheckRun["evidence"]> = {}): CheckRun => ({
      evidence: {
        scenario: { check: "positive_data_acceptance", operation: "getFile" },
        exchanges: [],
        warnings: [],
        failures: [],
        inputs: [],
        ...fields,
      } as unknown as CheckRun["evidence"],
      state,
      durationMs: 1,
    });
    expect(checkRunState(run("failed", { failures: [failure("response_schema_conformance")] }), [])).toBe("passed");
    expect(checkRunState(run("failed"), [])).toBe("failed");
    expect(checkRunState(run("skipped", { notRun: "no file" }), [])).toBe("not run");
    expect(checkRunState(run("skipped"), [])).toBe("skipped");
    expect(checkRunState(run("passed"), [failure("positive_data_acceptance")])).toBe("failed");
  });
});
