import { readFileSync } from "node:fs";
import { formatCatalogue, selectedChecks, UnknownCheckError } from "../checks/catalogue.ts";
import { loadBundledSpec, SpecLoadError } from "../../lib/openapi/load.ts";
import { defaultSpecFile, packageManifestFile } from "../locations.ts";
import { runSuite } from "../run-suite.ts";
import { rateLimitSettings, RateLimitSettingError } from "../support/rate-limits.ts";
import { liveTargetFromEnv, TargetError } from "../support/target.ts";
import { parseContractArgs, UsageError } from "./args.ts";
import { helpText } from "./help.ts";
import { unreachableReason } from "./reachability.ts";

/** The exit codes of a contract run, the same for the published CLI and `npm run contract`. */
export const EXIT = { passed: 0, failed: 1, cannotStart: 2 } as const;

/** A mock the caller started: the suite checks it, then the caller's `stop` ends it. */
export interface StartedMock {
  baseUrl: string;
  stop(): Promise<void>;
}

/** What the kit's repo adds in front of the suite: its preparation steps, and the Prism mock when no live server is named. */
export interface RepoPreparation {
  /** Runs the steps (lint, bundle, drift), printing each; resolves false when one failed. */
  steps(): Promise<boolean>;
  /** Starts the mock; called side by side with `steps`, since its start-up is the longest wait. */
  startMock(): Promise<StartedMock>;
}

/** How the command presents itself. */
export interface CommandOptions {
  /** Prefix of its one-line errors ("file-library-contract", "contract"). */
  name: string;
  usage: string;
  intro: string;
  /** Present in the kit's repo only: the published CLI checks live servers. */
  repo?: RepoPreparation | undefined;
}

class CannotStart extends Error {}

/** Runs a contract command from its argv and the environment; resolves with the exit code. */
export async function runContractCommand(argv: string[], options: CommandOptions, baseEnv: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    return await run(argv, options, baseEnv);
  } catch (error) {
    if (error instanceof CannotStart) {
      console.error(`${options.name}: cannot start: ${error.message}`);
      return EXIT.cannotStart;
    }
    throw error;
  }
}

async function run(argv: string[], options: CommandOptions, baseEnv: NodeJS.ProcessEnv): Promise<number> {
  const { repo } = options;
  const args = orCannotStart(() => parseContractArgs(argv, { mockFlag: repo !== undefined }), UsageError, " (see --help)");
  if (args.help) {
    console.log(helpText({ usage: options.usage, intro: options.intro, mockFlag: repo !== undefined }));
    return EXIT.passed;
  }
  if (args.version) {
    console.log((JSON.parse(readFileSync(packageManifestFile, "utf8")) as { version: string }).version);
    return EXIT.passed;
  }
  if (args.listChecks) {
    console.log(formatCatalogue());
    return EXIT.passed;
  }

  const env: NodeJS.ProcessEnv = { ...baseEnv };
  if (args.checks !== undefined) env.FILE_LIBRARY_CHECKS = args.checks;
  if (args.excludeChecks !== undefined) env.FILE_LIBRARY_EXCLUDE_CHECKS = args.excludeChecks;
  if (args.seed !== undefined) env.FILE_LIBRARY_SEED = args.seed;
  if (args.reportDir !== undefined) env.FILE_LIBRARY_REPORT_DIR = args.reportDir;
  if (args.rateLimit !== undefined) env.FILE_LIBRARY_RATE_LIMIT = args.rateLimit;
  orCannotStart(() => selectedChecks(env), UnknownCheckError);
  orCannotStart(() => rateLimitSettings(env), RateLimitSettingError);
  if (args.mock) {
    delete env.FILE_LIBRARY_BASE_URL;
  } else {
    if (args.baseUrl !== undefined) env.FILE_LIBRARY_BASE_URL = args.baseUrl;
    if (args.fileId !== undefined) env.FILE_LIBRARY_FILE_ID = args.fileId;
  }
  const live = orCannotStart(() => liveTargetFromEnv(env), TargetError);
  if (!live && !repo) {
    throw new CannotStart("no server to check: give its base URL with --base-url URL or FILE_LIBRARY_BASE_URL, and a file id with --file-id ID or FILE_LIBRARY_FILE_ID.");
  }
  // The spec is checked before anything starts; in the kit's repo without FILE_LIBRARY_SPEC, the steps bundle it.
  if (env.FILE_LIBRARY_SPEC) {
    orCannotStart(
      () => loadBundledSpec(env.FILE_LIBRARY_SPEC!, "point FILE_LIBRARY_SPEC at a bundled OpenAPI document (JSON), or unset it to use the suite's own."),
      SpecLoadError,
    );
  } else if (!repo) {
    orCannotStart(() => loadBundledSpec(defaultSpecFile, "reinstall the package: its bundled spec is missing."), SpecLoadError);
  }
  if (live) {
    const reason = await unreachableReason(live.baseUrl);
    if (reason) throw new CannotStart(`the server at ${live.baseUrl} is unreachable (${reason}); check FILE_LIBRARY_BASE_URL or --base-url.`);
  }

  let mock: StartedMock | undefined;
  if (repo) {
    const mockStarting = live ? undefined : repo.startMock().catch((error: Error) => error);
    const stepsOk = await repo.steps();
    const started = await mockStarting;
    if (!stepsOk) {
      console.error(`\n${options.name}: stopped before the suite: fix the failed step(s) above.`);
      if (started && !(started instanceof Error)) await started.stop();
      return EXIT.failed;
    }
    if (started instanceof Error) {
      console.error(`${options.name}: ${started.message}`);
      return EXIT.failed;
    }
    mock = started;
    if (mock) env.FILE_LIBRARY_MOCK_URL = mock.baseUrl;
  }

  console.log(`\n── contract suite against ${live ? `the live server ${live.baseUrl}` : "the embedded Prism mock"}${live?.writeChecks ? " (write checks on)" : ""}`);
  try {
    const { exitCode, summary } = await runSuite({ env, output: "inherit" });
    if (summary?.stopped) console.error(`${options.name}: cannot finish: ${summary.stopped.reason}`);
    return exitCode;
  } finally {
    await mock?.stop();
  }
}

/** Runs `work`; an error of the given class means the run cannot start (with `suffix` added to its message). */
function orCannotStart<T>(work: () => T, kind: new (...args: never[]) => Error, suffix = ""): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof kind) throw new CannotStart(`${error.message}${suffix}`);
    throw error;
  }
}
