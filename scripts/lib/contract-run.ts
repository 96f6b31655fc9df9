import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runCommand } from "./child-process.ts";
import { bin, fromRoot, repoRoot } from "./paths.ts";
import type { ContractSummary } from "../../contract-tests/support/summary-reporter.ts";

/** The outcome of one run of the contract suite in a child process. */
export interface ContractRun {
  code: number;
  output: string;
  summary: ContractSummary;
  reportDir: string;
}

/** Runs the contract suite (no lint or drift steps) against a live target, with its reports in a fresh folder. */
export async function runContractSuite(env: Record<string, string>): Promise<ContractRun> {
  const reportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-contract-"));
  const { code, output } = await runCommand(bin("vitest"), ["run", "--config", fromRoot("contract-tests/vitest.config.ts")], {
    cwd: repoRoot,
    env: { ...process.env, FILE_LIBRARY_WRITE_CHECKS: "", ...env, FILE_LIBRARY_REPORT_DIR: reportDir },
  });
  const summary = JSON.parse(await readFile(path.join(reportDir, "contract-summary.json"), "utf8")) as ContractSummary;
  return { code, output, summary, reportDir };
}

/** The names of the checks that failed. */
export const failedChecks = (run: ContractRun): string[] => [
  ...new Set(run.summary.checks.filter((c) => c.state === "failed").map((c) => c.check)),
];
