import type { CheckFailureRecord } from "../report/shapes.ts";
import { checkRunState, failuresOf, type CheckRun } from "./check-state.ts";
import type { Paint } from "./paint.ts";

/**
 * One line per check as it ends: the check, its operation, and its state, with no file names, stack traces or totals
 * (the summary prints the failures once, and the one total). Its state is the summary's (run/check-state.ts): a
 * failure of another check during it is that check's. A failure found for a check whose line is already printed (a
 * write held to the baseline in a later check) prints that check's line again, failed, so that the last line of each
 * check says what the summary says. The diagnosis of the metadata comes first, once, before the line of the check
 * that received it.
 */
export class ProgressLines {
  private readonly failures: CheckFailureRecord[] = [];
  /** The checks whose line is printed and not failed, by "operation check". */
  private readonly shownPassing = new Set<string>();
  private diagnosed = false;

  constructor(private readonly paint: Paint) {}

  /** The lines a check that just ended prints, each ending in a newline. */
  ended(run: CheckRun): string {
    const { paint } = this;
    const { evidence } = run;
    const scenario = evidence.scenario;
    let text = "";
    this.failures.push(...evidence.failures);
    if (evidence.diagnosis && !this.diagnosed) {
      this.diagnosed = true;
      text += `  ${paint.red("DIAGNOSIS")} ${evidence.diagnosis}\n`;
    }
    const own = failuresOf(this.failures, scenario.check, scenario.operation);
    const state = checkRunState(run, own);
    const requests = evidence.exchanges.length;
    const counted = requests > 0 ? paint.dim(` (${requests} request${requests === 1 ? "" : "s"})`) : "";
    const name = `${scenario.operation} ${scenario.check}`;
    let line: string;
    if (state === "failed") line = `${paint.red("✗")} ${name}${counted}`;
    else if (state === "not run") line = `${paint.red("!")} ${name} ${paint.red("not run")}`;
    else if (state === "skipped") line = paint.dim(`- ${name}: skipped${run.note ? ` (${run.note})` : ""}`);
    else line = `${paint.green("✓")} ${name}${counted}`;
    text += `  ${line}\n`;
    if (state !== "failed") this.shownPassing.add(name);
    // Checks already shown as not failed that this check found failing.
    for (const failure of evidence.failures) {
      const other = `${failure.operation} ${failure.check}`;
      if (other === name || !this.shownPassing.delete(other)) continue;
      text += `  ${paint.red("✗")} ${other} ${paint.dim(`(failed during ${name})`)}\n`;
    }
    return text;
  }
}
