/**
 * `npm run test:stress`: runs the live-suite tests several times in a row (default 10) while a CPU-bound load keeps
 * every core busy, to show that they pass on a loaded machine, not only on an idle one. Prints one line per round,
 * keeps each round's output in reports/stress/, and exits 0 only when every round passed.
 */
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readCommandLine, wholeNumber } from "../lib/command-line.ts";
import { exitOnInterrupt, startChild } from "../lib/process.ts";
import { fromRoot, repoRoot } from "./lib/paths.ts";

const DEFAULT_FILES = [
  "test/suite/contract-live.test.ts",
  "test/suite/contract-connections.test.ts",
  "test/suite/contract-rate-limits.test.ts",
];
const { values, operands } = readCommandLine({
  name: "test:stress",
  invocation: "npm run test:stress --",
  about: `Runs the live-suite tests several rounds in a row while CPU-bound processes keep every core busy; passes only
if every round passes. Each round's output goes to reports/stress/.`,
  flags: {
    runs: { takes: "N", default: "10", parse: wholeNumber(1), help: "rounds to run; every one must pass" },
    load: {
      takes: "N",
      default: String(os.availableParallelism()),
      parse: wholeNumber(0),
      help: "CPU-bound processes kept busy meanwhile: one per core unless told",
    },
  },
  operands: { name: "FILE", help: `the test files of each round (default: ${DEFAULT_FILES.join(" ")})` },
});
const { runs, load } = values;
const files = operands.length > 0 ? operands : DEFAULT_FILES;

// The load: busy loops in processes of their own, stopped with this script however it ends.
exitOnInterrupt();
for (let i = 0; i < load; i++) startChild(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });

const logs = fromRoot("reports", "stress");
await mkdir(logs, { recursive: true });
console.log(
  `test:stress: ${runs} round(s) of ${files.join(", ")}, with ${load} busy process(es) on ${os.availableParallelism()} core(s)`,
);

const vitest = fromRoot("node_modules", "vitest", "vitest.mjs");
const durations: number[] = [];
let passed = 0;
for (let round = 1; round <= runs; round++) {
  const log = path.join(logs, `round-${round}.log`);
  const started = performance.now();
  const code = await new Promise<number>((resolve) => {
    const out = createWriteStream(log);
    const child = startChild(process.execPath, [vitest, "run", "--config", "vitest.config.ts", ...files], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.pipe(out, { end: false });
    child.stderr?.pipe(out, { end: false });
    child.once("close", (exitCode) => out.end(() => resolve(exitCode ?? 1)));
  });
  const seconds = (performance.now() - started) / 1000;
  durations.push(seconds);
  if (code === 0) passed++;
  console.log(
    `round ${round}/${runs}: ${code === 0 ? "passed" : `FAILED (exit ${code}), see ${path.relative(repoRoot, log)}`} in ${seconds.toFixed(0)} s`,
  );
}

const range = `${Math.min(...durations).toFixed(0)} to ${Math.max(...durations).toFixed(0)} s a round`;
console.log(`test:stress: ${passed} of ${runs} rounds passed under load (${range}).`);
process.exit(passed === runs ? 0 : 1);
