import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TestCase } from "vitest/node";
import ProgressReporter from "../../contract-tests/run/progress-reporter.ts";
import type { CheckFailureRecord } from "../../contract-tests/report/shapes.ts";

/** A finished test of a scenario check, as vitest hands it to a reporter. */
function testCase(check: string, state: "passed" | "failed" | "skipped", meta: { failures?: CheckFailureRecord[]; diagnosis?: string; exchanges?: unknown[] } = {}): TestCase {
  return {
    meta: () => ({ scenario: { check, operation: "updateFile" }, ...meta }),
    result: () => ({ state, ...(state === "skipped" ? { note: "why" } : {}), errors: [] }),
  } as unknown as TestCase;
}

const drift = (found: string): CheckFailureRecord => ({ check: "update_changes_only_its_fields", operation: "updateFile", problem: `lastUpdated moved, in ${found}` });

let written: string[];
beforeEach(() => {
  written = [];
  // Colours are decided when paint.ts loads: whatever they are here, the test reads the text.
  vi.spyOn(process.stdout, "write").mockImplementation((text) => {
    written.push(String(text).replace(/\u001b\[\d+m/g, ""));
    return true;
  });
});
afterEach(() => void vi.restoreAllMocks());

describe("ProgressReporter: one line per check, in the summary's state", () => {
  it("marks a check ✓ when only another check failed during its test, ✗ when it failed itself", () => {
    const reporter = new ProgressReporter();
    const schema: CheckFailureRecord = { check: "response_schema_conformance", operation: "updateFile", problem: "schema" };
    reporter.onTestCaseResult(testCase("positive_data_acceptance", "failed", { failures: [schema], exchanges: [{}] }));
    reporter.onTestCaseResult(testCase("update_persisted", "failed", { failures: [{ ...schema, check: "update_persisted" }] }));
    expect(written).toEqual(["  ✓ updateFile positive_data_acceptance (1 request)\n", "  ✗ updateFile update_persisted\n"]);
  });

  it("marks a skipped check skipped, whatever failed in its test", () => {
    const reporter = new ProgressReporter();
    reporter.onTestCaseResult(testCase("metadata_size_matches_content", "skipped", { failures: [{ check: "response_schema_conformance", operation: "getFile", problem: "schema" }] }));
    expect(written).toEqual(["  - updateFile metadata_size_matches_content: skipped (why)\n"]);
  });

  it("prints a check again, failed, when a later test finds its failure; and marks it failed when it ends after one was found", () => {
    const reporter = new ProgressReporter();
    reporter.onTestCaseResult(testCase("update_changes_only_its_fields", "passed"));
    reporter.onTestCaseResult(testCase("omitted_fields_kept", "failed", { failures: [drift("omitted_fields_kept")] }));
    expect(written).toEqual(["  ✓ updateFile update_changes_only_its_fields\n", "  ✓ updateFile omitted_fields_kept\n", "  ✗ updateFile update_changes_only_its_fields (failed during updateFile omitted_fields_kept)\n"]);
    written.length = 0;
    const later = new ProgressReporter();
    later.onTestCaseResult(testCase("omitted_fields_kept", "failed", { failures: [drift("omitted_fields_kept")] }));
    later.onTestCaseResult(testCase("update_changes_only_its_fields", "passed"));
    expect(written).toEqual(["  ✓ updateFile omitted_fields_kept\n", "  ✗ updateFile update_changes_only_its_fields\n"]);
  });

  it("prints the diagnosis once, before the line of the first check that received it", () => {
    const reporter = new ProgressReporter();
    reporter.onTestCaseResult(testCase("auth_required", "passed"));
    reporter.onTestCaseResult(testCase("positive_data_acceptance", "passed", { diagnosis: "this server answers fileId → id" }));
    reporter.onTestCaseResult(testCase("update_persisted", "passed", { diagnosis: "this server answers fileId → id" }));
    expect(written).toEqual(["  ✓ updateFile auth_required\n", "  DIAGNOSIS this server answers fileId → id\n", "  ✓ updateFile positive_data_acceptance\n", "  ✓ updateFile update_persisted\n"]);
  });
});
