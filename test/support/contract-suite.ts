import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runSuite, type ContractSummary, type SuiteOptions, type SuiteRun } from "../../contract-tests/index.ts";
import { settingsEnvironment } from "../../contract-tests/run/settings.ts";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { sandbox, SANDBOX_KEY, storedMetadata, type TestSandboxConfig } from "./sandbox.ts";

/** The fixtures the live runs load into their sandbox, and the file of them they check. */
export const SANDBOX_FIXTURES = fromRoot("test/fixtures/sandbox-files.json");
export const FILE_ID = "doc-1";
/** The seed of the live runs: their generated inputs are the same every time. */
export const SEED = 20261123;

/** The options of a live run against a sandbox: its URL and key, the fixtures' file, the fixed seed; `extra` on top. */
export const liveOptions = (baseUrl: string, extra: SuiteOptions = {}): SuiteOptions => ({
  baseUrl,
  apiKey: SANDBOX_KEY,
  fileId: FILE_ID,
  seed: SEED,
  ...extra,
});

/** The environment of a live run through the command line, from its options. */
export const liveEnvironment = (baseUrl: string, extra: SuiteOptions = {}): Record<string, string> =>
  settingsEnvironment(liveOptions(baseUrl, extra));

/** This process's environment without the suite's settings: a run's options alone decide it, whatever the shell set. */
export const environmentWithoutSettings = (): Record<string, string | undefined> =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("FILE_LIBRARY_") && name !== "GITHUB_STEP_SUMMARY"),
  );

/** A finished run of the suite, with its summary. */
export type ContractRun = SuiteRun & { summary: ContractSummary };

/** Runs the suite (no lint or drift steps) against a live target, read-only unless `options` say so, with its reports in a fresh folder. */
export async function runContractSuite(options: SuiteOptions): Promise<ContractRun> {
  const reportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-contract-"));
  const run = await runSuite({ env: environmentWithoutSettings(), ...options, reportDir });
  if (!run.summary) throw new Error(`the suite wrote no summary (exit ${run.exitCode}):\n${run.output}`);
  return { ...run, summary: run.summary };
}

/** The names of the checks that failed. */
export const failedChecks = (run: ContractRun): string[] => [
  ...new Set(run.summary.checks.filter((c) => c.state === "failed").map((c) => c.check)),
];

/** A run against a sandbox of its own, with the file as the sandbox stored it before and after the run. */
export type SandboxRun = ContractRun & { fileBefore: unknown; fileAfter: unknown };

/** Starts a sandbox (with a fault or variant, if named), runs the suite against it (read-only unless `extra` says so), stops it. */
export async function suiteAgainstSandbox(config: TestSandboxConfig, extra: SuiteOptions = {}): Promise<SandboxRun> {
  const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, ...config });
  try {
    const fileBefore = await storedMetadata(sb.baseUrl, FILE_ID);
    const run = await runContractSuite(liveOptions(sb.baseUrl, extra));
    return { ...run, fileBefore, fileAfter: await storedMetadata(sb.baseUrl, FILE_ID) };
  } finally {
    await sb.close();
  }
}
