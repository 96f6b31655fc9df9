import { readBundledDocument, SpecLoadError } from "../../lib/openapi/bundled-document.ts";
import type { Target } from "../http/target.ts";
import { defaultSpecFile } from "../locations.ts";
import { readSettings, SettingError, type SuiteSettings } from "../run/settings.ts";
import type { StartupRead } from "../run/startup-read-record.ts";
import { liveTarget } from "../run/target.ts";
import { CannotStartError, preflight } from "./preflight.ts";
import { unreachableReason } from "./reachability.ts";
import type { Clock } from "../http/wait-clock.ts";

export { CannotStartError } from "./preflight.ts";

/** The settings a run starts with, checked: what it checks (a live server, or the runner's mock) and against which spec. */
export interface CheckedSettings {
  settings: SuiteSettings;
  /** The live server the settings name; undefined when a runner's mock is checked. */
  live: Target | undefined;
  /** The bundled spec the run validates against; undefined while the kit's repo is still bundling it. */
  specFile: string | undefined;
}

/**
 * Everything a run checks before it starts that needs no server, the same for `runSuite`, the published CLI and
 * `npm run contract`: every setting, the selected checks' names, a server to check (a base URL, its key and a file
 * id, unless the runner starts a mock), and the spec. Throws CannotStartError with one line that names what to fix.
 */
export async function checkSettings(
  env: Readonly<Record<string, string | undefined>>,
  { mock }: { mock: "started-by-runner" | "none" },
): Promise<CheckedSettings> {
  const settings = orCannotStart(() => readSettings(env), SettingError);
  const live = orCannotStart(() => liveTarget(settings), SettingError);
  if (settings.checks.length > 0 || settings.excludeChecks.length > 0) {
    // The catalogue brings every check (and fast-check): loaded only when names are given. A named check that cannot
    // run as set up is a wrong setting, not a skip (docs/decisions.md, D21).
    const { assertSelectionRuns, selectedChecks } = await import("../run/check-selection.ts");
    orCannotStart(() => selectedChecks(settings), SettingError);
    orCannotStart(
      () => assertSelectionRuns(settings, { state: live !== undefined, writes: live ? live.writeChecks : true }),
      SettingError,
    );
  }
  if (!live && mock === "none" && !settings.mockUrl) {
    throw new CannotStartError(
      "no server to check: give its base URL with --base-url URL or FILE_LIBRARY_BASE_URL, and a file id with --file-id ID or FILE_LIBRARY_FILE_ID.",
    );
  }
  // In the kit's repo without FILE_LIBRARY_SPEC, the runner's steps bundle the spec while the suite starts.
  const specFile = settings.specFile ?? (mock === "started-by-runner" ? undefined : defaultSpecFile);
  if (specFile) {
    const remedy = settings.specFile
      ? "point FILE_LIBRARY_SPEC at a bundled OpenAPI document (JSON), or unset it to use the suite's own."
      : "reinstall the package: its bundled spec is missing.";
    // Only read: the suite's worker builds the validator; building one here (Ajv's load) would only delay its start.
    orCannotStart(() => readBundledDocument(specFile, remedy), SpecLoadError);
  }
  return { settings, live, specFile };
}

/**
 * The live server's checks before the run, once its spec is known: that something listens at the base URL, and one
 * read of the file with the key (runner/preflight.ts: a refused key or an unknown file id is a wrong setting). Resolves
 * with the requests it sent, which count against the run's budget, and the read, which the checks judge.
 */
export async function checkTarget(
  live: Target,
  settings: SuiteSettings,
  specFile: string,
  waitClock?: Clock,
): Promise<{ requestsBefore: number; startupRead: StartupRead }> {
  const reason = await unreachableReason(live.baseUrl);
  if (reason)
    throw new CannotStartError(
      `the server at ${live.baseUrl} is unreachable (${reason}); check FILE_LIBRARY_BASE_URL or --base-url.`,
    );
  const { requests, read } = await preflight(live, settings, specFile, waitClock);
  return { requestsBefore: requests, startupRead: read };
}

/** Runs `work`; an error of the given class means the run cannot start (with `suffix` added to its message). */
export function orCannotStart<T>(work: () => T, kind: new (...args: never[]) => Error, suffix = ""): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof kind) throw new CannotStartError(`${error.message}${suffix}`);
    throw error;
  }
}
