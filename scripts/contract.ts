/**
 * `npm run contract`: lints the spec, bundles it, checks the generated types for drift, then runs the
 * contract suite against the Prism mock (default) or a live server (FILE_LIBRARY_BASE_URL or --base-url).
 * The published `file-library-contract` is the same command without the steps and the mock.
 * Exit codes: 0 every check passed, 1 a step or check failed, 2 the run could not start.
 */
import path from "node:path";
import { buildSpec } from "./lib/build-spec.ts";
import { checkDrift } from "./lib/drift.ts";
import { lintSpec } from "./lib/redocly.ts";
import { generatedTypes, repoRoot, specRoot } from "./lib/paths.ts";
import { startPrism } from "./lib/prism.ts";
import { runContractCommand } from "../contract-tests/runner/command.ts";
import { exitOnInterrupt } from "../lib/process.ts";

/** The three preparation steps are independent: run them side by side (in this process), report them in order. */
async function runSteps(): Promise<boolean> {
  const steps = [
    { name: "lint:spec", run: () => lintSpec().then(({ ok, output }) => ({ ok, message: output })) },
    { name: "build:spec", run: buildSpec },
    { name: "check:generated", run: () => checkDrift(generatedTypes, path.relative(repoRoot, generatedTypes)) },
  ];
  const results = await Promise.all(steps.map((step) => step.run()));
  let ok = true;
  steps.forEach((step, i) => {
    const result = results[i]!;
    console.log(`\n── ${step.name} ${result.ok ? "ok" : "FAILED"}`);
    process.stdout.write(result.message.trimEnd() + "\n");
    ok &&= result.ok;
  });
  return ok;
}

exitOnInterrupt();
process.exit(
  await runContractCommand(process.argv.slice(2), {
    name: "contract",
    usage: "npm run contract -- [--base-url URL --file-id ID] [--mock] [flags]",
    intro: `Lints the spec, bundles it, checks src/generated for drift, then runs the contract suite.
Without a base URL the suite checks the embedded Prism mock, which it starts and stops itself.`,
    // Prism starts from the split spec, so it need not wait for the bundle.
    repo: { steps: runSteps, startMock: async () => {
      const prism = await startPrism(specRoot);
      return { baseUrl: prism.url, stop: prism.stop };
    } },
  }),
);
