/** `npm run bench`: runs every benchmark, prints the tables with their ratios, writes reports/bench.json. Never fails on a timing. */
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import { namesOf, readCommandLine } from "../lib/command-line.ts";
import { exitOnInterrupt, runCommand } from "../lib/process.ts";
import { bin, fromRoot, repoRoot } from "../scripts/lib/paths.ts";
import { corePlan, pinLoad } from "./lib/cores.ts";
import { announcePlan, announceStarted, inSection } from "./lib/progress.ts";
import { renderSection, type Section } from "./lib/report.ts";

/**
 * The sections, in the order they run, and about how long each took in one full run on 2 cores of a shared machine
 * (docs/benchmarks.md, How long each section takes). Only for the plan a run prints first; nothing is judged by them.
 */
const SECTIONS = [
  { name: "client-overhead", about: 210 },
  { name: "client-lines", about: 120 },
  { name: "client-cpu", about: 39 },
  { name: "client-size", about: 1 },
  { name: "suite-time", about: 84 },
  { name: "sandbox-throughput", about: 140 },
  { name: "proxy-throughput", about: 160 },
] as const;
/** The spec's bundle and the benchmarks' modules, before the first section (7 s on an idle machine, 16 s under load). */
const START = 10;
const { values } = readCommandLine({
  name: "bench",
  invocation: "npm run bench --",
  about: `Runs the benchmarks side by side, prints their tables with the ratios (stdout), and writes reports/bench.json
and reports/bench.md. Never fails on a timing. Its plan and its progress go to stderr.`,
  flags: {
    only: {
      takes: "NAME,...",
      parse: namesOf(SECTIONS.map(({ name }) => name)),
      help: `run only these sections, comma-separated (for work on one number): ${SECTIONS.map(({ name }) => name).join(", ")}`,
    },
  },
});
const planned = SECTIONS.filter(({ name }) => !values.only || values.only.includes(name));

const machine = `${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
exitOnInterrupt();
const started = performance.now();
announcePlan(START, planned);

// The sandbox, the fake and the suite read the bundled spec: it is built before any of them is imported.
const built = await runCommand(bin("tsx"), [fromRoot("scripts/build-spec.ts")], { cwd: repoRoot });
if (built.code !== 0) {
  console.error(
    `${built.output.trim()}\nbench: could not bundle the spec (above); run \`npm run lint:spec\` to see what is wrong with it.`,
  );
  process.exit(1);
}
const [
  { clientCpu },
  { clientLines },
  { clientOverhead },
  { clientSize },
  { sandboxThroughput },
  { suiteTime },
  { proxyThroughput },
] = await Promise.all([
  import("./client-cpu.ts"),
  import("./client-lines.ts"),
  import("./client-overhead.ts"),
  import("./client-size.ts"),
  import("./sandbox-throughput.ts"),
  import("./suite-time.ts"),
  import("./proxy-throughput.ts"),
]);

announceStarted(started);

const cores = corePlan();
/** A load against servers in their own processes: the load on its cores, the servers on theirs. */
const pinned =
  <S>(bench: (plan: typeof cores) => Promise<S>) =>
  async () => {
    const unpin = "load" in cores ? pinLoad(cores) : () => {};
    try {
      return await bench(cores);
    } finally {
      unpin();
    }
  };
const benches: Record<(typeof SECTIONS)[number]["name"], () => Promise<Section | Section[]>> = {
  "client-overhead": pinned(clientOverhead),
  "client-lines": pinned(clientLines),
  "client-cpu": clientCpu,
  "client-size": clientSize,
  "suite-time": suiteTime,
  "sandbox-throughput": pinned(sandboxThroughput),
  "proxy-throughput": pinned(proxyThroughput),
};

const sections: Section[] = [];
for (const [i, { name }] of planned.entries())
  sections.push(...[await inSection(name, i + 1, planned.length, benches[name])].flat());

const placement = "load" in cores ? cores.description : cores.unpinned;
const text = [
  `## Benchmarks (${new Date().toISOString().slice(0, 10)}; ${machine}; ${placement})`,
  "",
  ...sections.map(renderSection),
].join("\n");
console.log(text);
await mkdir(fromRoot("reports"), { recursive: true });
await writeFile(
  fromRoot("reports/bench.json"),
  `${JSON.stringify({ date: new Date().toISOString(), machine, sections }, null, 2)}\n`,
);
await writeFile(fromRoot("reports/bench.md"), `${text}\n`);
console.error(
  `bench: done in ${((performance.now() - started) / 1000).toFixed(0)} s; wrote reports/bench.json and reports/bench.md`,
);
