import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runCommand } from "../lib/process.ts";
import { runSuite, type ContractSummary } from "../contract-tests/index.ts";
import { bin, bundledSpec, fromRoot, repoRoot } from "../scripts/lib/paths.ts";
import { startPrism } from "../scripts/lib/prism.ts";
import { fmt, type Section } from "./lib/report.ts";
import { startScriptServer } from "../scripts/lib/script-server.ts";

async function seconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

async function script(file: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { code, output } = await runCommand(bin("tsx"), [fromRoot(file), ...args], { cwd: repoRoot, env });
  if (code !== 0) throw new Error(`${file} failed:\n${output}`);
}

/** `npm run contract` against the mock as a whole and phase by phase, and the live suite against the sandbox. */
export async function suiteTime(): Promise<Section> {
  const lint = await seconds(() => script("scripts/lint-spec.ts"));
  const build = await seconds(() => script("scripts/build-spec.ts"));
  const drift = await seconds(() => script("scripts/check-generated.ts"));
  const mockStart = await seconds(async () => (await startPrism(bundledSpec.yaml)).stop());

  const reportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-bench-"));
  const whole = await seconds(() => script("scripts/contract.ts", ["--mock"], { ...process.env, FILE_LIBRARY_REPORT_DIR: reportDir }));
  const summary = JSON.parse(await readFile(path.join(reportDir, "contract-summary.json"), "utf8")) as ContractSummary;
  const checks = summary.checks.reduce((sum, c) => sum + c.durationMs, 0) / 1000;

  const sandbox = await startScriptServer("sandbox/main.ts", ["--fixtures", fromRoot("test/fixtures/sandbox-files.json")], {
    ...process.env,
    FILE_LIBRARY_API_KEY: "bench-key",
  });
  let live: number;
  let liveChecks: number;
  try {
    let run: Awaited<ReturnType<typeof runSuite>> | undefined;
    const liveReportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-bench-"));
    live = await seconds(async () => {
      run = await runSuite({
        env: { ...process.env, FILE_LIBRARY_BASE_URL: sandbox.url, FILE_LIBRARY_API_KEY: "bench-key", FILE_LIBRARY_FILE_ID: "doc-1", FILE_LIBRARY_WRITE_CHECKS: "1" },
        reportDir: liveReportDir,
      });
    });
    if (!run?.summary) throw new Error(`the live suite wrote no summary:\n${run?.output}`);
    liveChecks = run.summary.checks.reduce((sum, c) => sum + c.durationMs, 0) / 1000;
  } finally {
    await sandbox.stop();
  }

  const share = (s: number) => `${fmt((100 * s) / whole, 0)}%`;
  return {
    title: "Contract suite wall time (seconds)",
    columns: ["phase", "s", "share of npm run contract"],
    rows: [
      ["lint:spec (alone)", fmt(lint), share(lint)],
      ["build:spec (alone)", fmt(build), share(build)],
      ["check:generated (alone)", fmt(drift), share(drift)],
      ["Prism mock start", fmt(mockStart), share(mockStart)],
      ["the checks themselves (sum of test times)", fmt(checks), share(checks)],
      ["npm run contract, mock (whole; the three steps above run side by side)", fmt(whole), "100%"],
      ["live suite against the sandbox, write checks on (whole)", fmt(live), ""],
      ["  of which the checks themselves", fmt(liveChecks), ""],
    ],
    ratios: [
      { name: "checks / whole mock run", value: checks / whole, target: "small" },
      { name: "mock start / whole mock run", value: mockStart / whole, target: "for comparison" },
      { name: "whole mock run, seconds", value: whole, target: "< 5" },
    ],
  };
}
