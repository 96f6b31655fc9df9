/**
 * `npm run contract`: lints the spec, bundles it, checks the generated types for drift, then runs the
 * contract suite against the Prism mock (default) or a live server (FILE_LIBRARY_BASE_URL or --base-url).
 * Exit codes: 0 every check passed, 1 a step or check failed, 2 the run could not start.
 */
import net from "node:net";
import { runCommand, spawnTracked } from "./lib/child-process.ts";
import { parseContractArgs, UsageError, type ContractArgs } from "./lib/cli-args.ts";
import { bin, fromRoot, repoRoot } from "./lib/paths.ts";
import { liveTargetFromEnv, TargetError } from "../contract-tests/support/target.ts";

const HELP = `Usage: npm run contract -- [--base-url URL] [--file-id ID] [--mock]

Lints the spec, bundles it, checks src/generated for drift, then runs the contract suite.
Without a base URL the suite checks the embedded Prism mock, which it starts and stops itself.

Flags:
  --base-url URL   check a live server (same as FILE_LIBRARY_BASE_URL)
  --file-id ID     id of an existing file on that server (same as FILE_LIBRARY_FILE_ID)
  --mock           check the Prism mock even when FILE_LIBRARY_BASE_URL is set
  -h, --help       show this text

Environment:
  FILE_LIBRARY_BASE_URL      base URL of a live server (live mode)
  FILE_LIBRARY_API_KEY       its API key; only ever read from the environment
  FILE_LIBRARY_FILE_ID       id of an existing file on it
  FILE_LIBRARY_WRITE_CHECKS  1 to also check updates (the file is changed, then put back)
  FILE_LIBRARY_REPORT_DIR    folder of the JUnit report (default: reports)

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

const env: NodeJS.ProcessEnv = { ...process.env };
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

// The three preparation steps are independent: run them side by side, report them in order.
const steps = [
  { name: "lint:spec", script: "scripts/lint-spec.ts" },
  { name: "build:spec", script: "scripts/build-spec.ts" },
  { name: "check:generated", script: "scripts/check-generated.ts" },
];
const results = await Promise.all(steps.map((step) => runCommand(bin("tsx"), [fromRoot(step.script)], { cwd: repoRoot })));
let failed = false;
steps.forEach((step, i) => {
  const { code, output } = results[i]!;
  console.log(`\n── ${step.name} ${code === 0 ? "ok" : "FAILED"}`);
  process.stdout.write(output.trimEnd() + "\n");
  failed ||= code !== 0;
});
if (failed) {
  console.error("\ncontract: stopped before the suite: fix the failed step(s) above.");
  process.exit(1);
}

console.log(`\n── contract suite against ${live ? `the live server ${live.baseUrl}` : "the embedded Prism mock"}${live?.writeChecks ? " (write checks on)" : ""}`);
const suite = spawnTracked(bin("vitest"), ["run", "--config", fromRoot("contract-tests/vitest.config.ts")], {
  cwd: repoRoot,
  env,
  stdio: "inherit",
});
const code = await new Promise<number>((resolve) => suite.once("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0))));
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
