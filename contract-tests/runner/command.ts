import { readFileSync } from "node:fs";
import { packageManifestFile } from "../locations.ts";
import { startSuite, type SuiteStart } from "../run-suite.ts";
import { processEnvironment, settingsEnvironment, type SuiteSettingsInput } from "../run/settings.ts";
import { parseContractArgs, UsageError } from "./args.ts";
import { helpText } from "./help.ts";
import { describePlan } from "./plan.ts";
import { CannotStartError, checkSettings, orCannotStart } from "./start.ts";

/** The exit codes of a contract run, the same for the published CLI and `npm run contract`. */
export const EXIT = { passed: 0, failed: 1, cannotStart: 2 } as const;

/** A mock the caller started: the suite checks it, then the caller's `stop` ends it. */
export interface StartedMock {
  baseUrl: string;
  stop(): Promise<void>;
}

/** What the kit's repo adds in front of the suite: its preparation steps, and the Prism mock when no live server is named. */
export interface RepoPreparation {
  /**
   * Starts the steps (lint, bundle, drift). `needed` resolves once those the suite needs have run (it starts then),
   * `all` once every step has and its results are printed; each resolves false when one of its steps failed.
   */
  steps(): { needed: Promise<boolean>; all: Promise<boolean> };
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

// The catalogue brings every check (and fast-check): it loads only when needed, so that the suite's process starts sooner.
const catalogue = () => import("../checks/catalogue.ts");

/** Runs a contract command from its argv and the environment; resolves with the exit code. */
export async function runContractCommand(
  argv: string[],
  options: CommandOptions,
  baseEnv: NodeJS.ProcessEnv = processEnvironment(),
): Promise<number> {
  try {
    return await run(argv, options, baseEnv);
  } catch (error) {
    if (error instanceof CannotStartError) {
      console.error(`${options.name}: cannot start: ${error.message}`);
      return EXIT.cannotStart;
    }
    throw error;
  }
}

async function run(argv: string[], options: CommandOptions, baseEnv: NodeJS.ProcessEnv): Promise<number> {
  const { repo } = options;
  const args = orCannotStart(
    () => parseContractArgs(argv, { mockFlag: repo !== undefined }),
    UsageError,
    " (see --help)",
  );
  if (args.help) {
    console.log(helpText({ usage: options.usage, intro: options.intro, mockFlag: repo !== undefined }));
    return EXIT.passed;
  }
  if (args.version) {
    console.log((JSON.parse(readFileSync(packageManifestFile, "utf8")) as { version: string }).version);
    return EXIT.passed;
  }
  if (args.listChecks) {
    console.log((await catalogue()).formatCatalogue());
    return EXIT.passed;
  }

  // The flags, as settings; they win over the environment.
  const given: SuiteSettingsInput = {
    checks: args.checks?.split(","),
    excludeChecks: args.excludeChecks?.split(","),
    seed: args.seed === undefined ? undefined : Number(args.seed),
    shuffle: args.shuffle || undefined,
    reportDir: args.reportDir,
    rateLimit: args.rateLimit,
    ...(args.mock ? {} : { baseUrl: args.baseUrl, fileId: args.fileId }),
  };
  const env: NodeJS.ProcessEnv = { ...baseEnv, ...settingsEnvironment(given) };
  if (args.mock) delete env.FILE_LIBRARY_BASE_URL;
  // The settings and the spec, checked before anything starts (the mock, the steps); startSuite checks them again, with
  // the server (the same code as runSuite's: runner/start.ts), and says why a run cannot start in summary.stopped.
  const { live, settings } = await checkSettings(env, { mock: repo ? "started-by-runner" : "none" });

  // Which target, and how many checks, before the first request.
  const header = async () => console.log(`\n${await describePlan(settings, live)}`);
  let mock: StartedMock | undefined;
  try {
    let start: SuiteStart | undefined;
    if (repo) {
      // The steps, the mock and the suite's own start-up all run at once. The suite's checks wait for the mock and
      // the steps they need; its output waits for every step, whose results come first.
      const mockStarting = live ? undefined : repo.startMock().catch((error: Error) => error);
      const steps = repo.steps();
      const failed = new StepFailed("stopped before the suite: fix the failed step(s) above.");
      const spec = (async () => {
        if (!(await steps.needed)) throw failed;
      })();
      const target = (async () => {
        const started = await mockStarting;
        if (started instanceof Error) throw new StepFailed(started.message);
        mock = started;
        return { mockUrl: mock?.baseUrl };
      })();
      const release = (async () => {
        if (!(await steps.all)) throw failed;
        await Promise.all([spec, target]);
        await header();
      })();
      // Each is awaited by startSuite; marked as handled now, so that an early failure is no unhandled rejection.
      for (const settled of [spec, target, release]) settled.catch(() => {});
      start = { spec, target, release };
    }
    const { exitCode, summary } = await startSuite({ env, output: "inherit" }, start, {
      started: repo ? undefined : header,
    });
    if (summary?.stopped)
      console.error(
        `${options.name}: ${summary.stopped.atStart ? "cannot start" : "cannot finish"}: ${summary.stopped.reason}`,
      );
    return exitCode;
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    console.error(`\n${options.name}: ${error.message}`);
    return EXIT.failed;
  } finally {
    await mock?.stop();
  }
}

/** A preparation step or the mock failed: the suite does not run (exit 1). */
class StepFailed extends Error {}
