import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runCommand } from "../lib/process.ts";
import { runSuite } from "../contract-tests/index.ts";
import { buildSpec } from "../scripts/lib/build-spec.ts";
import { checkDrift } from "../scripts/lib/drift.ts";
import { fromRoot, generatedTypes, repoRoot, specRoot } from "../scripts/lib/paths.ts";
import { startPrism } from "../scripts/lib/prism.ts";
import { lintSpec } from "../scripts/lib/redocly.ts";
import { startScriptServer } from "../scripts/lib/script-server.ts";
import { fmt, median, span, type Section } from "./lib/report.ts";

const ROUNDS = 4;

async function seconds(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/** npm as the user runs it: the npm that runs the bench, else the one on PATH. */
function npm(args: string[]): [string, string[]] {
  const cli = process.env.npm_execpath;
  return cli ? [process.execPath, [cli, ...args]] : ["npm", args];
}

/**
 * `npm run contract`, exactly as the README runs it. Cold, it runs as in a fresh clone after `npm ci`: no bundle,
 * no reports, no vitest cache, and an empty temporary directory (where tsx keeps its compiled files).
 */
async function contractRun(cold: boolean): Promise<number> {
  const env: NodeJS.ProcessEnv = { ...process.env, FILE_LIBRARY_BASE_URL: "", FILE_LIBRARY_REPORT_DIR: await mkdtemp(path.join(os.tmpdir(), "file-library-bench-")) };
  let tmp: string | undefined;
  if (cold) {
    tmp = await mkdtemp(path.join(os.tmpdir(), "file-library-cold-"));
    Object.assign(env, { TMPDIR: tmp, TMP: tmp, TEMP: tmp });
    await Promise.all(["dist", "reports", "node_modules/.vite", "node_modules/.vite-temp"].map((dir) => rm(fromRoot(dir), { recursive: true, force: true })));
  }
  try {
    const [command, args] = npm(["run", "--silent", "contract"]);
    let result: Awaited<ReturnType<typeof runCommand>> | undefined;
    const took = await seconds(async () => (result = await runCommand(command, args, { cwd: repoRoot, env })));
    if (result?.code !== 0) throw new Error(`npm run contract failed:\n${result?.output}`);
    return took;
  } finally {
    if (tmp) await rm(tmp, { recursive: true, force: true });
    await rm(env.FILE_LIBRARY_REPORT_DIR!, { recursive: true, force: true });
  }
}

/** Each step of `npm run contract` alone, in this process as the command runs them: where the time goes. */
async function phases(): Promise<Array<[string, number]>> {
  const lint = await seconds(() => lintSpec());
  const build = await seconds(buildSpec);
  const drift = await seconds(() => checkDrift(generatedTypes, "src/generated"));
  let mock: Awaited<ReturnType<typeof startPrism>> | undefined;
  const mockStart = await seconds(async () => (mock = await startPrism(specRoot)));
  const reportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-bench-"));
  try {
    const env = { ...process.env, FILE_LIBRARY_BASE_URL: "", FILE_LIBRARY_MOCK_URL: mock!.url };
    const suite = await seconds(async () => {
      const run = await runSuite({ env, reportDir });
      if (run.exitCode !== 0) throw new Error(`the suite failed against the mock:\n${run.output}`);
    });
    return [
      ["lint:spec (Redocly)", lint],
      ["build:spec (Redocly bundle)", build],
      ["check:generated (in-process, content hash)", drift],
      ["Prism mock start", mockStart],
      ["the suite against a running mock (vitest start and checks)", suite],
    ];
  } finally {
    // Also when the suite failed: a failed bench run leaves no report folder behind.
    await mock?.stop();
    await rm(reportDir, { recursive: true, force: true });
  }
}

/** The live suite against the sandbox, write checks on: what a CI pipeline pays against a fast server. */
async function liveRun(): Promise<number> {
  const sandbox = await startScriptServer("sandbox/main.ts", ["--fixtures", fromRoot("test/fixtures/sandbox-files.json")], {
    ...process.env,
    FILE_LIBRARY_API_KEY: "bench-key",
  });
  const reportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-bench-"));
  try {
    const env = { ...process.env, FILE_LIBRARY_BASE_URL: sandbox.url, FILE_LIBRARY_API_KEY: "bench-key", FILE_LIBRARY_FILE_ID: "doc-1", FILE_LIBRARY_WRITE_CHECKS: "1" };
    return await seconds(async () => {
      const run = await runSuite({ env, reportDir });
      if (run.exitCode !== 0) throw new Error(`the live suite failed against the sandbox:\n${run.output}`);
    });
  } finally {
    await sandbox.stop();
    await rm(reportDir, { recursive: true, force: true });
  }
}

/** `npm run contract` against the mock, warm and as in a fresh clone, interleaved; its steps alone; the live suite. */
export async function suiteTime(): Promise<Section> {
  const warm: number[] = [];
  const cold: number[] = [];
  await contractRun(false); // warm-up: fills the caches a warm run has
  for (let round = 0; round < ROUNDS; round++) {
    cold.push(await contractRun(true));
    warm.push(await contractRun(false));
  }
  const steps = await phases();
  const live = await liveRun();
  return {
    title: `Contract suite wall time (seconds): npm run contract, ${ROUNDS} interleaved rounds of cold and warm`,
    columns: ["what", "median s", "min to max"],
    rows: [
      ["npm run contract, warm", fmt(median(warm)), span(warm)],
      ["npm run contract, fresh clone (no bundle, no caches)", fmt(median(cold)), span(cold)],
      ...steps.map(([name, s]): [string, string, string] => [`  step alone: ${name}`, fmt(s), ""]),
      ["live suite against the sandbox, write checks on", fmt(live), ""],
    ],
    ratios: [
      { name: "npm run contract, warm, seconds", rounds: warm, target: "< 5" },
      { name: "npm run contract, fresh clone, seconds", rounds: cold, target: "< 5" },
    ],
    notes: [
      "`npm run contract` starts Prism first and runs lint, bundle and drift check beside it; vitest starts beside them too and waits for the mock. The steps alone add up to more than the whole: the critical path is npm and tsx, then the mock's start, then the checks.",
    ],
  };
}
