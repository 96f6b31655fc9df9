/**
 * `npm run contract`: lints the spec, bundles it, checks the generated types for drift, then runs the
 * contract suite against the Prism mock (default) or a live server (FILE_LIBRARY_BASE_URL or --base-url).
 * The published `file-library-contract` is the same command without the steps and the mock; its `proxy`, `replay` and
 * `pact` commands run from here as `npm run contract -- proxy …`, `npm run contract -- replay …` and `npm run contract -- pact …`.
 * Exit codes: 0 every check passed, 1 a step or check failed, 2 the run could not start.
 */
import { exitOnInterrupt, type ServerProcess } from "../lib/process.ts";
import { specRoot } from "./lib/paths.ts";
import { startPrism } from "./lib/prism.ts";

// User Timing marks (performance.mark) name the phases of a run: profilers show them, and the bench's phase table
// (bench/lib/phase-probe.mjs) reads them. `contract:start`: Node and tsx have loaded this script.
performance.mark("contract:start");
const argv = process.argv.slice(2);

/** How the package CLI's commands are run from a clone: the usage and messages name it so. */
const CLI_NAME = "npm run contract --";

/** The package CLI's commands that run from a clone as they do from the package, after `npm run contract --`. */
const CLI_COMMANDS = ["proxy", "replay", "pact"] as const;
type CliCommand = (typeof CLI_COMMANDS)[number];
const isCliCommand = (word: string | undefined): word is CliCommand =>
  (CLI_COMMANDS as readonly (string | undefined)[]).includes(word);

/**
 * `npm run contract -- proxy|replay|pact …`: the package CLI's commands (`file-library-contract proxy|replay|pact`),
 * from a clone, with the bundle they judge by built first if stale. Each owns its signals (the proxy writes its reports
 * on Ctrl-C), so this runs before the suite's interrupt handler is set.
 */
async function runCliCommand(command: CliCommand, args: string[]): Promise<number> {
  const { ensureBundledSpec } = await import("./lib/build-spec.ts");
  const bundled = await ensureBundledSpec();
  if (bundled && !bundled.ok) {
    console.error(bundled.message);
    return 1;
  }
  if (command === "proxy")
    return (await import("../contract-tests/runner/proxy-command.ts")).runProxyCommand(args, CLI_NAME);
  if (command === "pact")
    return (await import("../contract-tests/runner/pact-command.ts")).runPactCommand(args, CLI_NAME);
  const { runReplayCommand } = await import("../contract-tests/runner/replay-command.ts");
  return (await import("../contract-tests/runner/pact-replay.ts")).replayPactOr(args, CLI_NAME, runReplayCommand);
}
if (isCliCommand(argv[0])) process.exit(await runCliCommand(argv[0], argv.slice(1)));

exitOnInterrupt();

// The mock starts at once, from the split spec (it does not need the bundle): Prism's start-up is the longest path
// of a run, warm or fresh. lib/process's exit hook stops it whenever the run ends, listening or not.
let prism: Promise<ServerProcess> | undefined;

// The runner first: it loads the engine while the steps' modules load after it.
const { runContractCommand } = await import("../contract-tests/runner/command.ts");
const stepModules = Promise.all([
  import("node:path"),
  import("./lib/build-spec.ts"),
  import("./lib/drift.ts"),
  import("./lib/redocly.ts"),
  import("./lib/paths.ts"),
]);

/**
 * The three steps are independent, and report in order once all are done. The suite needs the bundle (and the drift
 * check, which guards the types it is compiled against), not the lint: those two start at once, beside the mock; the
 * lint waits until they and the mock are ready (niced too), so that it takes no core from the suite's start-up, and
 * runs beside the checks instead.
 */
function startSteps(): { needed: Promise<boolean>; all: Promise<boolean> } {
  const timed = <T>(phase: string, run: () => Promise<T>) => {
    performance.mark(`${phase}:start`);
    return run().finally(() => performance.mark(`${phase}:end`));
  };
  const bundle = stepModules.then(([, { buildSpec }]) => timed("bundle", () => buildSpec({ reuse: true })));
  const drift = stepModules.then(([{ default: path }, , { checkDrift }, , { generatedTypes, repoRoot }]) =>
    timed("drift", () => checkDrift(generatedTypes, path.relative(repoRoot, generatedTypes))),
  );
  const needed = Promise.all([bundle, drift]).then((results) => results.every((result) => result.ok));
  const lint = Promise.allSettled([needed, prism]).then(async () => {
    const [, , , { lintSpec }] = await stepModules;
    return timed("lint", () =>
      lintSpec({ niceness: 10, reuse: true }).then(({ ok, output }) => ({ ok, message: output })),
    );
  });
  const steps = [
    { name: "lint:spec", run: lint },
    { name: "build:spec", run: bundle },
    { name: "check:generated", run: drift },
  ];
  const all = (async () => {
    const results = await Promise.all(steps.map((step) => step.run));
    steps.forEach((step, i) => {
      console.log(`\n── ${step.name} ${results[i]!.ok ? "ok" : "FAILED"}`);
      process.stdout.write(results[i]!.message.trimEnd() + "\n");
    });
    return results.every((result) => result.ok);
  })();
  return { needed, all };
}

const code = await runContractCommand(argv, {
  name: "contract",
  usage: `${CLI_NAME} [--base-url URL --file-id ID] [--mock] [flags]
       ${CLI_NAME} proxy --upstream URL [--record FILE] [-- command...]   (check real traffic; see proxy --help)
       ${CLI_NAME} replay FILE --base-url URL   (replay a recording against a deployment; see replay --help)
       ${CLI_NAME} pact export RECORDING --consumer NAME | pact check PACT_FILE   (Pact files out and in; see pact --help)`,
  intro: `Lints the spec, bundles it, checks src/generated for drift, then runs the contract suite.
Without a base URL the suite checks the embedded Prism mock, which it starts and stops itself.`,
  repo: {
    steps: startSteps,
    startMock: async () => {
      prism ??= startPrism(specRoot);
      prism.then(() => performance.mark("mock:ready")).catch(() => {}); // reported by the runner, which awaits it
      const started = await prism;
      return { baseUrl: started.url, stop: started.stop };
    },
  },
});
process.exit(code);
