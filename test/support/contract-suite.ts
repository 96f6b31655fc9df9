import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runSuite, type ContractSummary, type SuiteRun } from "../../contract-tests/index.ts";

/** A finished run of the suite, with its summary. */
export type ContractRun = SuiteRun & { summary: ContractSummary };

/** Runs the suite (no lint or drift steps) against a live target, read-only unless `env` says so, with its reports in a fresh folder. */
export async function runContractSuite(env: Record<string, string>): Promise<ContractRun> {
  const reportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-contract-"));
  const run = await runSuite({ env: { ...process.env, FILE_LIBRARY_WRITE_CHECKS: "", ...env }, reportDir });
  if (!run.summary) throw new Error(`the suite wrote no summary (exit ${run.exitCode}):\n${run.output}`);
  return { ...run, summary: run.summary };
}

/** The names of the checks that failed. */
export const failedChecks = (run: ContractRun): string[] => [
  ...new Set(run.summary.checks.filter((c) => c.state === "failed").map((c) => c.check)),
];
