/**
 * `npm run contract`: lints the spec, bundles it, checks the generated types for drift, then runs the
 * contract suite against the Prism mock (default) or a live server (FILE_LIBRARY_BASE_URL or --base-url).
 * Exit codes: 0 every check passed, 1 a step or check failed, 2 the run could not start.
 */
import net from "node:net";
import path from "node:path";
import { spawnTracked } from "./lib/child-process.ts";
import { buildSpec } from "./lib/build-spec.ts";
import { checkDrift } from "./lib/drift.ts";
import { lintSpec } from "./lib/redocly.ts";
import { parseContractArgs, UsageError, type ContractArgs } from "./lib/cli-args.ts";
import { bin, fromRoot, generatedTypes, repoRoot } from "./lib/paths.ts";
import { liveTargetFromEnv, TargetError } from "../contract-tests/support/target.ts";
import { startPrism, type RunningMock } from "../contract-tests/support/prism.ts";
import { formatCatalogue, selectedChecks, UnknownCheckError } from "../contract-tests/checks/catalogue.ts";
import { specRoot } from "./lib/paths.ts";

const HELP = `Usage: npm run contract -- [--base-url URL] [--file-id ID] [--mock]

Lints the spec, bundles it, checks src/generated for drift, then runs the contract suite.
Without a base URL the suite checks the embedded Prism mock, which it starts and stops itself.

Flags:
  --base-url URL          check a live server (same as FILE_LIBRARY_BASE_URL)
  --file-id ID            id of an existing file on that server (same as FILE_LIBRARY_FILE_ID)
  --mock                  check the Prism mock even when FILE_LIBRARY_BASE_URL is set
  --list-checks           print the check catalogue and exit
  --checks a,b            run only these checks (same as FILE_LIBRARY_CHECKS)
  --exclude-checks c      run every check but these (same as FILE_LIBRARY_EXCLUDE_CHECKS)
  --seed N                replay the generated inputs of an earlier run (same as FILE_LIBRARY_SEED)
  -h, --help              show this text

Environment:
  FILE_LIBRARY_BASE_URL      base URL of a live server (live mode)
  FILE_LIBRARY_API_KEY       its API key; only ever read from the environment
  FILE_LIBRARY_FILE_ID       id of an existing file on it
  FILE_LIBRARY_WRITE_CHECKS  1 to also check updates (the file is changed, then put back)
  FILE_LIBRARY_REPORT_DIR    folder of the reports (default: reports): contract-junit.xml,
                             contract-summary.json, contract-coverage.json and .md
  FILE_LIBRARY_FUZZ_RUNS     generated inputs per generated check (default 5)
  FILE_LIBRARY_MAX_REQUESTS  request budget of a run (default: 100 read-only live, 300 with write checks)
  FILE_LIBRARY_MAX_RESPONSE_MS  answers slower than this warn (default 5000)
  GITHUB_STEP_SUMMARY        when set, the Markdown coverage is appended to it

Exit codes: 0 passed, 1 a check or step failed, 2 the run could not start.`;

const EXIT_CANNOT_START = 2;

function cannotStart(message: string): never {
  console.error(`contract: cannot start: ${message}`);
  process.exit(EXIT_CANNOT_START);
}

let args: ContractArgs;
try {
  args = parseContractArgs(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) cannotStart(`${error.message} (see --help)`);
  throw error;
}
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
if (args.listChecks) {
  console.log(formatCatalogue());
  process.exit(0);
}

const env: NodeJS.ProcessEnv = { ...process.env };
if (args.checks !== undefined) env.FILE_LIBRARY_CHECKS = args.checks;
if (args.excludeChecks !== undefined) env.FILE_LIBRARY_EXCLUDE_CHECKS = args.excludeChecks;
if (args.seed !== undefined) env.FILE_LIBRARY_SEED = args.seed;
try {
  selectedChecks(env);
} catch (error) {
  if (error instanceof UnknownCheckError) cannotStart(error.message);
  throw error;
}
if (args.mock) {
  delete env.FILE_LIBRARY_BASE_URL;
} else {
  if (args.baseUrl !== undefined) env.FILE_LIBRARY_BASE_URL = args.baseUrl;
  if (args.fileId !== undefined) env.FILE_LIBRARY_FILE_ID = args.fileId;
}

let live;
try {
  live = liveTargetFromEnv(env);
} catch (error) {
  if (error instanceof TargetError) cannotStart(error.message);
  throw error;
}
if (live) await assertReachable(live.baseUrl);

// In mock mode Prism starts from the split spec while the steps run: its start-up is the longest wait.
const mockStarting: Promise<RunningMock | Error> | undefined = live ? undefined : startPrism(specRoot).catch((error: Error) => error);

// The three preparation steps are independent: run them side by side (in this process), report them in order.
const steps = [
  { name: "lint:spec", run: () => lintSpec().then(({ ok, output }) => ({ ok, message: output })) },
  { name: "build:spec", run: buildSpec },
  { name: "check:generated", run: () => checkDrift(generatedTypes, path.relative(repoRoot, generatedTypes)) },
];
const results = await Promise.all(steps.map((step) => step.run()));
let failed = false;
steps.forEach((step, i) => {
  const { ok, message } = results[i]!;
  console.log(`\n── ${step.name} ${ok ? "ok" : "FAILED"}`);
  process.stdout.write(message.trimEnd() + "\n");
  failed ||= !ok;
});
const mock = await mockStarting;
if (failed) {
  console.error("\ncontract: stopped before the suite: fix the failed step(s) above.");
  if (mock && !(mock instanceof Error)) await mock.stop();
  process.exit(1);
}
if (mock instanceof Error) {
  console.error(`contract: ${mock.message}`);
  process.exit(1);
}
if (mock) env.FILE_LIBRARY_MOCK_URL = mock.baseUrl;

console.log(`\n── contract suite against ${live ? `the live server ${live.baseUrl}` : "the embedded Prism mock"}${live?.writeChecks ? " (write checks on)" : ""}`);
const suite = spawnTracked(bin("vitest"), ["run", "--config", fromRoot("contract-tests/vitest.config.ts")], {
  cwd: repoRoot,
  env,
  stdio: "inherit",
});
const code = await new Promise<number>((resolve) => suite.once("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await mock?.stop();
process.exit(code === 0 ? 0 : 1);

/** Exit 2 with one line when nothing listens at the base URL, before any check runs. */
async function assertReachable(baseUrl: string): Promise<void> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  const reason = await new Promise<string | undefined>((resolve) => {
    const socket = net.connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port, timeout: 5_000 });
    socket.once("connect", () => (socket.destroy(), resolve(undefined)));
    socket.once("timeout", () => (socket.destroy(), resolve("no answer within 5 s")));
    socket.once("error", (error) => resolve(error.message));
  });
  if (reason) cannotStart(`the server at ${baseUrl} is unreachable (${reason}); check FILE_LIBRARY_BASE_URL or --base-url.`);
}
