/**
 * `npm run test:mutation`: StrykerJS over the client (src/, stryker.config.mjs), then over the contract suite's judges
 * (contract-tests/checks/ and the proxy's traffic rules, stryker.judges.config.mjs), once the bundled spec is there. Its
 * own flags come first, so that `--help` and a wrong flag answer at once instead of starting a half-hour run.
 */
import { readCommandLine } from "../lib/command-line.ts";
import { exitCodeOf, exitOnInterrupt, startChild } from "../lib/process.ts";
import { ensureBundledSpec } from "./lib/build-spec.ts";
import { bin, repoRoot } from "./lib/paths.ts";

const { values } = readCommandLine({
  name: "test:mutation",
  invocation: "npm run test:mutation --",
  about: `StrykerJS mutates the client (src/) and runs its unit tests (vitest.mutation.config.ts) against every mutant,
then the suite's judges (contract-tests/checks/, the proxy's traffic rules, what the checks judge with or send)
with their in-process tests (vitest.mutation-judges.config.ts): a mutant no test kills is a behaviour no test
reads. Each fails (exit 1) under 90%. About 10 and 7 minutes on 2 cores. Reports in reports/mutation/; settings in
stryker.config.mjs and stryker.judges.config.mjs. With --mutate, only the configuration whose files match runs.`,
  flags: {
    mutate: {
      takes: "GLOB",
      repeats: true,
      help: "mutate only these files (such as src/retry.ts), for work on one module; repeat it for several",
    },
  },
});

exitOnInterrupt();
const bundled = await ensureBundledSpec();
if (bundled && !bundled.ok) {
  console.error(bundled.message);
  process.exit(1);
}
// The client first (its run is the shorter), then the judges; --mutate picks the one its files belong to.
const configs = [
  { file: "stryker.config.mjs", owns: (glob: string) => glob.startsWith("src/") },
  { file: "stryker.judges.config.mjs", owns: (glob: string) => glob.startsWith("contract-tests/") },
].filter((config) => values.mutate.length === 0 || values.mutate.some(config.owns));
if (configs.length === 0) {
  console.error(
    `test:mutation: --mutate takes files of src/ or contract-tests/, got ${values.mutate.join(", ")} (see npm run test:mutation -- --help)`,
  );
  process.exit(2);
}
let code = 0;
for (const config of configs) {
  const mutate = values.mutate.filter(config.owns);
  const stryker = startChild(
    bin("stryker"),
    ["run", config.file, ...(mutate.length > 0 ? ["--mutate", mutate.join(",")] : [])],
    { cwd: repoRoot, stdio: "inherit" },
  );
  code = Math.max(code, await exitCodeOf(stryker));
}
process.exit(code);
