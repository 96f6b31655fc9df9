/**
 * `npm run test:stress`: runs the live-suite tests several times in a row (default 10) while a CPU-bound load keeps
 * every core busy, to show that they pass on a loaded machine, not only on an idle one. Prints one line per round,
 * keeps each round's output in reports/stress/, and exits 0 only when every round passed.
 */
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { exitOnInterrupt, startChild } from "../lib/process.ts";
import { fromRoot, repoRoot } from "./lib/paths.ts";

const DEFAULT_FILES = ["test/suite/contract-live.test.ts", "test/suite/contract-connections.test.ts", "test/suite/contract-rate-limits.test.ts"];
const USAGE = `Usage: npm run test:stress -- [--runs N] [--load N] [test files...]

  --runs N   rounds to run (default 10); every one must pass
  --load N   CPU-bound processes kept busy meanwhile (default: one per core, ${os.availableParallelism()} here)
  files      the test files of each round (default: ${DEFAULT_FILES.join(" ")})`;

function usage(message: string): never {
  console.error(`test:stress: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    options: { runs: { type: "string", default: "10" }, load: { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
  });
} catch (error) {
  usage((error as Error).message);
}
if (parsed.values.help) {
  console.log(USAGE);
  process.exit(0);
}
const count = (name: string, text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) usage(`--${name} takes a whole number, got ${JSON.stringify(text)}`);
  return value;
};
const runs = Math.max(1, count("runs", parsed.values.runs));
const load = count("load", parsed.values.load ?? String(os.availableParallelism()));
const files = parsed.positionals.length > 0 ? parsed.positionals : DEFAULT_FILES;

// The load: busy loops in processes of their own, stopped with this script however it ends.
exitOnInterrupt();
for (let i = 0; i < load; i++) startChild(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });

const logs = fromRoot("reports", "stress");
await mkdir(logs, { recursive: true });
console.log(`test:stress: ${runs} round(s) of ${files.join(", ")}, with ${load} busy process(es) on ${os.availableParallelism()} core(s)`);

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
  console.log(`round ${round}/${runs}: ${code === 0 ? "passed" : `FAILED (exit ${code}), see ${path.relative(repoRoot, log)}`} in ${seconds.toFixed(0)} s`);
}

const range = `${Math.min(...durations).toFixed(0)} to ${Math.max(...durations).toFixed(0)} s a round`;
console.log(`test:stress: ${passed} of ${runs} rounds passed under load (${range}).`);
process.exit(passed === runs ? 0 : 1);
