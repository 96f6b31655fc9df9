/** `npm run bench`: runs every benchmark, prints the tables with their ratios, writes reports/bench.json. Never fails on a timing. */
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import { exitOnInterrupt, runCommand } from "../lib/process.ts";
import { bin, fromRoot, repoRoot } from "../scripts/lib/paths.ts";
import { corePlan, pinLoad } from "./lib/cores.ts";
import { renderSection, type Section } from "./lib/report.ts";

const machine = `${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.availableParallelism()} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
exitOnInterrupt();
const started = performance.now();

// The sandbox, the fake and the suite read the bundled spec: it is built before any of them is imported.
const built = await runCommand(bin("tsx"), [fromRoot("scripts/build-spec.ts")], { cwd: repoRoot });
if (built.code !== 0) {
  console.error(`${built.output.trim()}\nbench: could not bundle the spec (above); run \`npm run lint:spec\` to see what is wrong with it.`);
  process.exit(1);
}
const [{ clientCpu }, { clientOverhead }, { clientSize }, { sandboxThroughput }, { suiteTime }, { proxyThroughput }] = await Promise.all([
  import("./client-cpu.ts"),
  import("./client-overhead.ts"),
  import("./client-size.ts"),
  import("./sandbox-throughput.ts"),
  import("./suite-time.ts"),
  import("./proxy-throughput.ts"),
]);

const cores = corePlan();
/** A load against servers in their own processes: the load on its cores, the servers on theirs. */
const pinned = <S>(bench: (plan: typeof cores) => Promise<S>) => async () => {
  const unpin = "load" in cores ? pinLoad(cores) : () => {};
  try {
    return await bench(cores);
  } finally {
    unpin();
  }
};
const benches = [
  ["client-overhead", pinned(clientOverhead)],
  ["client-cpu", clientCpu],
  ["client-size", clientSize],
  ["suite-time", suiteTime],
  ["sandbox-throughput", pinned(sandboxThroughput)],
  ["proxy-throughput", pinned(proxyThroughput)],
] as const;
// `npm run bench -- --only client-overhead,client-size` runs a subset (for working on one number).
const onlyFlag = process.argv.indexOf("--only");
const only = onlyFlag === -1 ? undefined : new Set(process.argv[onlyFlag + 1]?.split(","));
const unknown = [...(only ?? [])].filter((name) => !benches.some(([known]) => known === name));
if (unknown.length > 0) {
  console.error(`bench: unknown benchmark(s) ${unknown.join(", ")}; known: ${benches.map(([n]) => n).join(", ")}`);
  process.exit(2);
}

const sections: Section[] = [];
for (const [name, bench] of benches.filter(([n]) => !only || only.has(n))) {
  const benchStarted = performance.now();
  sections.push(...[await bench()].flat());
  process.stderr.write(`bench: ${name} took ${((performance.now() - benchStarted) / 1000).toFixed(0)} s\n`);
}

const placement = "load" in cores ? cores.description : cores.unpinned;
const text = [`## Benchmarks (${new Date().toISOString().slice(0, 10)}; ${machine}; ${placement})`, "", ...sections.map(renderSection)].join("\n");
console.log(text);
await mkdir(fromRoot("reports"), { recursive: true });
await writeFile(fromRoot("reports/bench.json"), `${JSON.stringify({ date: new Date().toISOString(), machine, sections }, null, 2)}\n`);
await writeFile(fromRoot("reports/bench.md"), `${text}\n`);
console.error(`bench: done in ${((performance.now() - started) / 1000).toFixed(0)} s; wrote reports/bench.json and reports/bench.md`);
