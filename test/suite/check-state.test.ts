import { describe, expect, it } from "vitest";
import { failuresOf, scenarioCheckState, type ScenarioEnding } from "../../contract-tests/run/check-state.ts";
import type { CheckFailureRecord } from "../../contract-tests/report/shapes.ts";

const failure = (check: string, operation = "getFile"): CheckFailureRecord => ({
  check,
  operation,
  problem: `${check} failed`,
});
const ending = (fields: Partial<ScenarioEnding>): ScenarioEnding => ({
  check: "positive_data_acceptance",
  operation: "getFile",
  testState: "passed",
  testFailures: [],
  own: [],
  notRun: false,
  ...fields,
});

describe("scenarioCheckState: one rule for the progress line and the summary", () => {
  it("is not failed by another check's failure in its test: vitest fails the test, the check passed", () => {
    const schema = failure("response_schema_conformance");
    expect(scenarioCheckState(ending({ testState: "failed", testFailures: [schema] }))).toBe("passed");
  });

  it("is skipped when its test skipped, even with another check's failure in it", () => {
    expect(
      scenarioCheckState(ending({ testState: "skipped", testFailures: [failure("response_schema_conformance")] })),
    ).toBe("skipped");
  });

  it("is failed by a failure of its own, found in whichever test; or by a test that failed with nothing recorded", () => {
    expect(scenarioCheckState(ending({ own: [failure("positive_data_acceptance")] }))).toBe("failed");
    expect(scenarioCheckState(ending({ testState: "skipped", own: [failure("positive_data_acceptance")] }))).toBe(
      "failed",
    );
    expect(scenarioCheckState(ending({ testState: "failed" }))).toBe("failed");
  });

  it("is not run when it did not run, unless it failed", () => {
    expect(scenarioCheckState(ending({ testState: "skipped", notRun: true }))).toBe("not run");
    expect(
      scenarioCheckState(ending({ testState: "skipped", notRun: true, own: [failure("positive_data_acceptance")] })),
    ).toBe("failed");
  });

  it("failuresOf picks the failures of one check on one operation", () => {
    const list = [failure("a"), failure("a", "updateFile"), failure("b")];
    expect(failuresOf(list, "a", "getFile")).toEqual([list[0]]);
  });
});
