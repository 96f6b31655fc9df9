import type { Reporter, TestCase } from "vitest/node";
import type { CheckFailureRecord } from "../report/shapes.ts";
import { failuresOf, scenarioCheckState } from "./check-state.ts";
import { paint } from "./paint.ts";

/**
 * One line per check as it ends, in place of vitest's own reporter: the check, its operation, and its state, with no
 * file names, stack traces or totals of vitest's (the summary reporter prints the failures once, and the one total).
 * Its state is the summary's (run/check-state.ts): a failure of another check during its test is that check's. A
 * failure found for a check whose line is already printed (a write held to the baseline in a later check) prints that
 * check's line again, failed, so that the last line of each check says what the summary says. The diagnosis of the
 * metadata comes first, once, before the line of the check that received it.
 */
export default class ProgressReporter implements Reporter {
  private readonly failures: CheckFailureRecord[] = [];
  /** The checks whose line is printed and not failed, by "operation check". */
  private readonly shownPassing = new Set<string>();
  private diagnosed = false;

  onTestCaseResult(test: TestCase): void {
    const meta = test.meta();
    const scenario = meta.scenario;
    if (!scenario) return;
    this.failures.push(...(meta.failures ?? []));
    if (meta.diagnosis && !this.diagnosed) {
      this.diagnosed = true;
      process.stdout.write(`  ${paint.red("DIAGNOSIS")} ${meta.diagnosis}\n`);
    }
    const result = test.result();
    const own = failuresOf(this.failures, scenario.check, scenario.operation);
    const state = scenarioCheckState({ ...scenario, testState: result.state, testFailures: meta.failures ?? [], own, notRun: meta.notRun !== undefined });
    const requests = meta.exchanges?.length ?? 0;
    const counted = requests > 0 ? paint.dim(` (${requests} request${requests === 1 ? "" : "s"})`) : "";
    const name = `${scenario.operation} ${scenario.check}`;
    let line: string;
    if (state === "failed") line = `${paint.red("✗")} ${name}${counted}`;
    else if (state === "not run") line = `${paint.red("!")} ${name} ${paint.red("not run")}`;
    else if (state === "skipped") line = paint.dim(`- ${name}: skipped${"note" in result && result.note ? ` (${result.note})` : ""}`);
    else line = `${paint.green("✓")} ${name}${counted}`;
    process.stdout.write(`  ${line}\n`);
    if (state !== "failed") this.shownPassing.add(name);
    // Checks already shown as not failed that this test found failing.
    for (const failure of meta.failures ?? []) {
      const other = `${failure.operation} ${failure.check}`;
      if (other === name || !this.shownPassing.delete(other)) continue;
      process.stdout.write(`  ${paint.red("✗")} ${other} ${paint.dim(`(failed during ${name})`)}\n`);
    }
  }
}
