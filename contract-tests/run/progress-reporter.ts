import type { Reporter, TestCase } from "vitest/node";
import { paint } from "./paint.ts";

/**
 * One line per check as it ends, in place of vitest's own reporter: the check, its operation, and its state, with no
 * file names, stack traces or totals of vitest's (the summary reporter prints the failures once, and the one total).
 */
export default class ProgressReporter implements Reporter {
  onTestCaseResult(test: TestCase): void {
    const scenario = test.meta().scenario;
    if (!scenario) return;
    const result = test.result();
    const { state } = result;
    const meta = test.meta();
    const requests = meta.exchanges?.length ?? 0;
    const counted = requests > 0 ? paint.dim(` (${requests} request${requests === 1 ? "" : "s"})`) : "";
    const name = `${scenario.operation} ${scenario.check}`;
    let line: string;
    if (meta.notRun !== undefined) line = `${paint.red("!")} ${name} ${paint.red("not run")}`;
    else if (state === "failed" || (meta.failures?.length ?? 0) > 0) line = `${paint.red("✗")} ${name}${counted}`;
    else if (state === "skipped") line = paint.dim(`- ${name}: skipped${"note" in result && result.note ? ` (${result.note})` : ""}`);
    else line = `${paint.green("✓")} ${name}${counted}`;
    process.stdout.write(`  ${line}\n`);
  }
}
