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
import { childrenCpuSeconds } from "./lib/children-cpu.ts";
import { asFreshClone } from "./lib/fresh-clone.ts";
import { readPhaseLog, withProbe } from "./lib/phase-log.ts";
import { count } from "./lib/progress.ts";
import { fmt, median, span, type Section } from "./lib/report.ts";

const ROUNDS = 5;

/** The same clock as the probe's: milliseconds since the epoch, sub-millisecond. */
const clock = () => performance.timeOrigin + performance.now();

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

/** Runs `work` as in a fresh clone when `cold` (see asFreshClone), else with the caches as they are. */
const maybeFresh = <T>(
  cold: boolean,
  env: NodeJS.ProcessEnv,
  work: (env: NodeJS.ProcessEnv) => Promise<T>,
): Promise<T> => (cold ? asFreshClone(env, work) : work(env));

/** One `npm run contract`, exactly as the README runs it, with the phase probe in each of its processes. */
interface ContractRun {
  seconds: number;
  /** CPU seconds of all its processes (NaN where the kernel does not tell). */
  cpu: number;
  /** Each phase's time in seconds since the command was spawned (readPhaseLog's keys). */
  phases: Map<string, number>;
}

async function contractRun(cold: boolean): Promise<ContractRun> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-bench-"));
  const log = path.join(scratch, "phases.jsonl");
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    FILE_LIBRARY_BASE_URL: "",
    FILE_LIBRARY_REPORT_DIR: path.join(scratch, "reports"),
    FILE_LIBRARY_PHASE_PROBE: log,
    NODE_OPTIONS: withProbe(process.env.NODE_OPTIONS),
  };
  try {
    return await maybeFresh(cold, base, async (env) => {
      const [command, args] = npm(["run", "--silent", "contract"]);
      const cpuBefore = childrenCpuSeconds() ?? Number.NaN;
      const spawnedAt = clock();
      const result = await runCommand(command, args, { cwd: repoRoot, env });
      const took = (clock() - spawnedAt) / 1000;
      const cpu = (childrenCpuSeconds() ?? Number.NaN) - cpuBefore;
      if (result.code !== 0) throw new Error(`npm run contract failed:\n${result.output}`);
      return { seconds: took, cpu, phases: await readPhaseLog(log, spawnedAt) };
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The phase table's rows: a name, and the probe's events that start and end it (one event: a moment). */
const PHASES: Array<[string, string, string?]> = [
  ["npm starts", "npm process:start"],
  ["node and tsx load scripts/contract.ts", "contract process:start", "contract contract:start"],
  ["Prism mock: spawned to listening", "prism process:start", "contract mock:ready"],
  ["lint:spec (Redocly; warm: a proven cache hit)", "contract lint:start", "contract lint:end"],
  ["build:spec (Redocly bundle; warm: a proven cache hit)", "contract bundle:start", "contract bundle:end"],
  ["check:generated (the recorded hash)", "contract drift:start", "contract drift:end"],
  ["the engine: started to the bundled spec", "contract suite:setup", "contract suite:spec-ready"],
  ["  the checks: first request to last answer", "contract request:first", "contract answer"],
  ["  the reports written", "contract suite:report"],
];

/** "start to end" (or one moment) as the median over the runs, in seconds since the command was spawned. */
function phaseCell(runs: ContractRun[], start: string, end: string | undefined): string {
  const at = (event: string) => {
    const times = runs.map((run) => run.phases.get(event)).filter((t): t is number => t !== undefined);
    return times.length === runs.length ? fmt(median(times)) : "n/a";
  };
  return end ? `${at(start)} to ${at(end)}` : at(start);
}

/**
 * The floor: the run's path when nothing beside it competes for the cores: npm, node and tsx to the runner (as
 * measured in the runs, where nothing else runs yet), then the suite alone against a mock that already listens
 * (the engine, the checks, the reports).
 */
async function suiteAlone(cold: boolean, mockUrl: string): Promise<number> {
  const reportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-bench-"));
  try {
    return await maybeFresh(
      cold,
      { ...process.env, FILE_LIBRARY_BASE_URL: "", FILE_LIBRARY_MOCK_URL: mockUrl },
      async (env) => {
        // The suite reads the bundle that a fresh clone has not: built again first (not timed).
        if (cold && !(await buildSpec()).ok) throw new Error("the spec could not be bundled");
        return seconds(async () => {
          const run = await runSuite({ env, reportDir });
          if (run.exitCode !== 0) throw new Error(`the suite failed against the mock:\n${run.output}`);
        });
      },
    );
  } finally {
    await rm(reportDir, { recursive: true, force: true });
  }
}

/** Each step of `npm run contract` alone, in this process as the command runs them, and the suite alone, fresh and warm. */
async function stepsAlone(): Promise<{ steps: Array<[string, number]>; suite: { cold: number[]; warm: number[] } }> {
  const lint = await seconds(() => lintSpec());
  const build = await seconds(buildSpec);
  const drift = await seconds(() => checkDrift(generatedTypes, "src/generated"));
  let mock: Awaited<ReturnType<typeof startPrism>> | undefined;
  const mockStart = await seconds(async () => (mock = await startPrism(specRoot)));
  try {
    const suite = { cold: [] as number[], warm: [] as number[] };
    await suiteAlone(false, mock!.url); // fills the caches a warm run has
    for (let round = 0; round < 3; round++) {
      suite.cold.push(await suiteAlone(true, mock!.url));
      suite.warm.push(await suiteAlone(false, mock!.url));
      count(round + 1, 3, "the suite alone, fresh and warm: round");
    }
    return {
      steps: [
        ["lint:spec (Redocly)", lint],
        ["build:spec (Redocly bundle)", build],
        ["check:generated (in-process, content hash)", drift],
        ["Prism mock start", mockStart],
      ],
      suite,
    };
  } finally {
    // Also when the suite failed: a failed bench run leaves no mock behind.
    await mock?.stop();
  }
}

/** The live suite against the sandbox, write checks on: what a CI pipeline pays against a fast server. */
async function liveRun(): Promise<number> {
  const sandbox = await startScriptServer(
    "sandbox/main.ts",
    ["--fixtures", fromRoot("test/fixtures/sandbox-files.json")],
    {
      ...process.env,
      FILE_LIBRARY_API_KEY: "bench-key",
    },
  );
  const reportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-bench-"));
  try {
    const env = {
      ...process.env,
      FILE_LIBRARY_BASE_URL: sandbox.url,
      FILE_LIBRARY_API_KEY: "bench-key",
      FILE_LIBRARY_FILE_ID: "doc-1",
      FILE_LIBRARY_WRITE_CHECKS: "1",
    };
    return await seconds(async () => {
      const run = await runSuite({ env, reportDir });
      if (run.exitCode !== 0) throw new Error(`the live suite failed against the sandbox:\n${run.output}`);
    });
  } finally {
    await sandbox.stop();
    await rm(reportDir, { recursive: true, force: true });
  }
}

/**
 * `npm run contract` against the mock, warm and as in a fresh clone, interleaved, with each phase on one time line;
 * its floor; its steps alone; the live suite.
 */
export async function suiteTime(): Promise<Section[]> {
  const warm: ContractRun[] = [];
  const cold: ContractRun[] = [];
  await contractRun(false); // warm-up: fills the caches a warm run has
  for (let round = 0; round < ROUNDS; round++) {
    cold.push(await contractRun(true));
    warm.push(await contractRun(false));
    count(round + 1, ROUNDS, "npm run contract, fresh and warm: round");
  }
  const { steps, suite } = await stepsAlone();
  const live = await liveRun();
  const totals = { cold: cold.map((run) => run.seconds), warm: warm.map((run) => run.seconds) };
  // The floor: the measured start of the runner (nothing competes before it), then the suite alone.
  const runnerStart = (runs: ContractRun[]) =>
    median(runs.map((run) => run.phases.get("contract contract:start") ?? Number.NaN));
  const floor = { cold: runnerStart(cold) + median(suite.cold), warm: runnerStart(warm) + median(suite.warm) };
  // The other floor: the CPU all of the run's processes take, spread over every core without a gap.
  const cores = os.availableParallelism();
  const cpu = { cold: median(cold.map((run) => run.cpu)), warm: median(warm.map((run) => run.cpu)) };
  return [
    {
      title: `npm run contract, phase by phase: seconds since the command was spawned, medians of ${ROUNDS} interleaved rounds`,
      columns: ["phase", "fresh clone", "warm"],
      rows: [
        ...PHASES.map(([name, start, end]): [string, string, string] => [
          name,
          phaseCell(cold, start, end),
          phaseCell(warm, start, end),
        ]),
        ["the command ends", fmt(median(totals.cold)), fmt(median(totals.warm))],
        [
          "  its floor: the runner's start, then the suite alone against a listening mock",
          fmt(floor.cold),
          fmt(floor.warm),
        ],
        ["  the CPU of all its processes (user and system, seconds)", fmt(cpu.cold), fmt(cpu.warm)],
        [`  its CPU floor: that CPU over ${cores} cores`, fmt(cpu.cold / cores), fmt(cpu.warm / cores)],
      ],
      ratios: [],
      notes: [
        "Each process of the run loads bench/lib/phase-probe.mjs (NODE_OPTIONS), which logs the User Timing marks the runner and the suite set, and the suite's requests. Fresh clone: no bundle, no reports, no step records, empty tsx caches.",
        "The floor is the path the run cannot go below while the suite runs after the runner starts: the mock, the lint and the bundle start beside it and add only the cores they take from it.",
        "The CPU floor is the other bound: the run cannot end before its processes have had the CPU they use, and it has that many cores. Both floors leave out what the two cost together (the mock's start is a path as long as the suite's, and they share the cores).",
      ],
    },
    {
      title: `Contract suite wall time (seconds): npm run contract, ${ROUNDS} interleaved rounds of cold and warm`,
      columns: ["what", "median s", "min to max"],
      rows: [
        ["npm run contract, warm", fmt(median(totals.warm)), span(totals.warm)],
        ["npm run contract, fresh clone (no bundle, no caches)", fmt(median(totals.cold)), span(totals.cold)],
        ["  its floor, warm", fmt(floor.warm), ""],
        ["  its floor, fresh clone", fmt(floor.cold), ""],
        ...steps.map(([name, s]): [string, string, string] => [`  step alone: ${name}`, fmt(s), ""]),
        ["  the suite alone against a listening mock, warm", fmt(median(suite.warm)), span(suite.warm)],
        ["  the suite alone against a listening mock, fresh clone", fmt(median(suite.cold)), span(suite.cold)],
        ["live suite against the sandbox, write checks on", fmt(live), ""],
      ],
      ratios: [
        { name: "npm run contract, warm, seconds", rounds: totals.warm, target: "<= 1.8" },
        { name: "npm run contract, fresh clone, seconds", rounds: totals.cold, target: "<= 2" },
        {
          name: "npm run contract, warm, over its floor",
          rounds: totals.warm.map((s) => s / floor.warm),
          // The suite runs in the runner's process since issue 55: the floor is its start and a fraction of a second.
          target: "for comparison",
        },
        {
          name: "npm run contract, fresh clone, over its floor",
          rounds: totals.cold.map((s) => s / floor.cold),
          target: "for comparison",
        },
        {
          name: "npm run contract, warm, over its CPU floor",
          rounds: warm.map((run) => run.seconds / (run.cpu / cores)),
          target: "for comparison",
        },
        {
          name: "npm run contract, fresh clone, over its CPU floor",
          rounds: cold.map((run) => run.seconds / (run.cpu / cores)),
          target: "for comparison",
        },
      ],
      notes: [
        "`npm run contract` starts the bundle, the drift check and Prism side by side, then runs the suite's engine in the runner's own process once the bundle is written and the mock listens; the lint starts once the mock listens, beside the checks. On a proven cache hit (the same inputs passed before: node_modules/.cache/file-library-kit) the lint and the bundle are not run again.",
      ],
    },
  ];
}
