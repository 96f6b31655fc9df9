import { beforeEach, describe, expect, it } from "vitest";
import { ProgressLines } from "../../contract-tests/run/progress-lines.ts";
import { painter } from "../../contract-tests/run/paint.ts";
import type { CheckRun } from "../../contract-tests/run/check-state.ts";
import type { CheckFailureRecord } from "../../contract-tests/report/shapes.ts";

/** A finished scenario check, as the engine hands it on. */
function checkRun(
  check: string,
  state: "passed" | "failed" | "skipped",
  meta: { failures?: CheckFailureRecord[]; diagnosis?: string; exchanges?: unknown[] } = {},
): CheckRun {
  return {
    evidence: {
      scenario: { check, operation: "updateFile" },
      exchanges: [],
      warnings: [],
      failures: [],
      inputs: undefined,
      stopped: undefined,
      notRun: undefined,
      diagnosis: undefined,
      ...meta,
    } as CheckRun["evidence"],
    state,
    ...(state === "skipped" ? { note: "why" } : {}),
    durationMs: 0,
  };
}

const drift = (found: string): CheckFailureRecord => ({
  check: "update_changes_only_its_fields",
  operation: "updateFile",
  problem: `lastUpdated moved, in ${found}`,
});

/** The lines of the checks given to it, one entry per line as printed. */
class Printed {
  private readonly lines = new ProgressLines(painter(false));
  onEnded(run: CheckRun): void {
    written.push(...this.lines.ended(run).split(/(?<=\n)/));
  }
}

let written: string[];
beforeEach(() => void (written = []));

describe("ProgressLines: one line per check, in the summary's state", () => {
  it("marks a check ✓ when only another check failed during its test, ✗ when it failed itself", () => {
    const printed = new Printed();
    const schema: CheckFailureRecord = {
      check: "response_schema_conformance",
      operation: "updateFile",
      problem: "schema",
    };
    printed.onEnded(checkRun("positive_data_acceptance", "failed", { failures: [schema], exchanges: [{}] }));
    printed.onEnded(checkRun("update_persisted", "failed", { failures: [{ ...schema, check: "update_persisted" }] }));
    expect(written).toEqual([
      "  ✓ updateFile positive_data_acceptance (1 request)\n",
      "  ✗ updateFile update_persisted\n",
    ]);
  });

  it("marks a skipped check skipped, whatever failed in its test", () => {
    const printed = new Printed();
    printed.onEnded(
      checkRun("metadata_size_matches_content", "skipped", {
        failures: [{ check: "response_schema_conformance", operation: "getFile", problem: "schema" }],
      }),
    );
    expect(written).toEqual(["  - updateFile metadata_size_matches_content: skipped (why)\n"]);
  });

  it("prints a check again, failed, when a later test finds its failure; and marks it failed when it ends after one was found", () => {
    const printed = new Printed();
    printed.onEnded(checkRun("update_changes_only_its_fields", "passed"));
    printed.onEnded(checkRun("omitted_fields_kept", "failed", { failures: [drift("omitted_fields_kept")] }));
    expect(written).toEqual([
      "  ✓ updateFile update_changes_only_its_fields\n",
      "  ✓ updateFile omitted_fields_kept\n",
      "  ✗ updateFile update_changes_only_its_fields (failed during updateFile omitted_fields_kept)\n",
    ]);
    written.length = 0;
    const later = new Printed();
    later.onEnded(checkRun("omitted_fields_kept", "failed", { failures: [drift("omitted_fields_kept")] }));
    later.onEnded(checkRun("update_changes_only_its_fields", "passed"));
    expect(written).toEqual([
      "  ✓ updateFile omitted_fields_kept\n",
      "  ✗ updateFile update_changes_only_its_fields\n",
    ]);
  });

  it("prints the diagnosis once, before the line of the first check that received it", () => {
    const printed = new Printed();
    printed.onEnded(checkRun("auth_required", "passed"));
    printed.onEnded(checkRun("positive_data_acceptance", "passed", { diagnosis: "this server answers fileId → id" }));
    printed.onEnded(checkRun("update_persisted", "passed", { diagnosis: "this server answers fileId → id" }));
    expect(written).toEqual([
      "  ✓ updateFile auth_required\n",
      "  DIAGNOSIS this server answers fileId → id\n",
      "  ✓ updateFile positive_data_acceptance\n",
      "  ✓ updateFile update_persisted\n",
    ]);
  });
});
