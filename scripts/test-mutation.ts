/**
 * `npm run test:mutation`: StrykerJS over the client (src/, stryker.config.mjs), once the bundled spec is there. Its
 * own flags come first, so that `--help` and a wrong flag answer at once instead of starting a six-minute run.
 */
import { readCommandLine } from "../lib/command-line.ts";
import { exitCodeOf, exitOnInterrupt, startChild } from "../lib/process.ts";
import { ensureBundledSpec } from "./lib/build-spec.ts";
import { bin, repoRoot } from "./lib/paths.ts";

const { values } = readCommandLine({
  name: "test:mutation",
  invocation: "npm run test:mutation --",
  about: `StrykerJS mutates the client (src/) and runs its unit tests (vitest.mutation.config.ts) against every mutant:
a mutant no test kills is a behaviour no test reads. Fails (exit 1) under 90%. About 6 minutes on 2 cores.
Report in reports/mutation/index.html; settings in stryker.config.mjs.`,
  flags: {
    mutate: { takes: "GLOB", repeats: true, help: "mutate only these files (such as src/retry.ts), for work on one module; repeat it for several" },
  },
});

exitOnInterrupt();
const bundled = await ensureBundledSpec();
if (bundled && !bundled.ok) {
  console.error(bundled.message);
  process.exit(1);
}
const args = ["run", ...(values.mutate.length > 0 ? ["--mutate", values.mutate.join(",")] : [])];
const stryker = startChild(bin("stryker"), args, { cwd: repoRoot, stdio: "inherit" });
process.exit(await exitCodeOf(stryker));
