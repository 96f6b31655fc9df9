import { existsSync } from "node:fs";
import path from "node:path";
import { parseBaseUrl } from "../../src/base-url.ts";
import { DEFAULT_MAX_RESPONSE_BYTES } from "../../src/response-limit.ts";
import { DEFAULT_MAX_RESPONSE_MS } from "../checks/types.ts";
import type { RateLimitSettings } from "../http/rate-limit-settings.ts";

/**
 * The one reader of the environment in the suite: every FILE_LIBRARY_* setting is parsed here, once, into one typed
 * object, and everything else (the runner, the config, the global setup, the checks) takes that object.
 */

/** A setting is unusable: the run cannot start. The message names the setting, as the user wrote it. */
export class SettingError extends Error {
  override name = "SettingError";
  constructor(
    /** The environment variable (or its flag) at fault. */
    readonly setting: string,
    message: string,
  ) {
    super(`${setting} ${message}`);
  }
}

/** The settings a run may be given as options: what `runSuite` takes, and what each flag sets. */
export interface SuiteSettingsInput {
  /** A live server's base URL (FILE_LIBRARY_BASE_URL); without one, the runner's mock. */
  baseUrl?: string | undefined;
  /** The live server's API key (FILE_LIBRARY_API_KEY); never printed. */
  apiKey?: string | undefined;
  /** The id of a file that exists on the live server (FILE_LIBRARY_FILE_ID). */
  fileId?: string | undefined;
  /** Also check updates, putting the file back (FILE_LIBRARY_WRITE_CHECKS). */
  writeChecks?: boolean | undefined;
  /** Run only these checks (FILE_LIBRARY_CHECKS). */
  checks?: readonly string[] | undefined;
  /** Run every check but these (FILE_LIBRARY_EXCLUDE_CHECKS). */
  excludeChecks?: readonly string[] | undefined;
  /** The seed of the generated inputs, and of the order with `shuffle` (FILE_LIBRARY_SEED); random by default. */
  seed?: number | undefined;
  /** Run the checks in an order drawn from the seed (FILE_LIBRARY_SHUFFLE): a verdict must not depend on it. */
  shuffle?: boolean | undefined;
  /** Generated inputs per generated check (FILE_LIBRARY_FUZZ_RUNS, default 5). */
  fuzzRuns?: number | undefined;
  /** The run's request budget (FILE_LIBRARY_MAX_REQUESTS; default 100 read-only live, 300 with writes, none for the mock). */
  maxRequests?: number | undefined;
  /** How long one attempt of a request may take (FILE_LIBRARY_REQUEST_TIMEOUT_MS, default 10 000). */
  requestTimeoutMs?: number | undefined;
  /** The most bytes read of one answer (FILE_LIBRARY_MAX_RESPONSE_BYTES, default 1 MiB). */
  maxResponseBytes?: number | undefined;
  /** Answers slower than this warn (FILE_LIBRARY_MAX_RESPONSE_MS, default 5000). */
  maxResponseMs?: number | undefined;
  /** The pace of the requests, `N/s`, `N/m` or `N/h` (FILE_LIBRARY_RATE_LIMIT; default: no pacing). */
  rateLimit?: string | undefined;
  /** The longest wait for a 429 accepted (FILE_LIBRARY_MAX_RETRY_WAIT_MS, default 10 000). */
  maxRetryWaitMs?: number | undefined;
  /** The most waiting for 429s in a run (FILE_LIBRARY_MAX_TOTAL_WAIT_MS, default 60 000). */
  maxTotalWaitMs?: number | undefined;
  /** The bundled spec to check against (FILE_LIBRARY_SPEC). */
  specFile?: string | undefined;
  /** The folder of the reports (FILE_LIBRARY_REPORT_DIR, default `reports`). */
  reportDir?: string | undefined;
  /** The mock's base URL, set by the runner that started it (FILE_LIBRARY_MOCK_URL). */
  mockUrl?: string | undefined;
  /** Requests the runner sent before the suite (its preflight read), counted in the budget (FILE_LIBRARY_REQUESTS_BEFORE; runners only). */
  requestsBefore?: number | undefined;
  /** A file the Markdown coverage is appended to (GITHUB_STEP_SUMMARY, as GitHub Actions sets it). */
  stepSummaryFile?: string | undefined;
}

/** Each setting's environment variable. */
export const VARIABLES = {
  baseUrl: "FILE_LIBRARY_BASE_URL",
  apiKey: "FILE_LIBRARY_API_KEY",
  fileId: "FILE_LIBRARY_FILE_ID",
  writeChecks: "FILE_LIBRARY_WRITE_CHECKS",
  checks: "FILE_LIBRARY_CHECKS",
  excludeChecks: "FILE_LIBRARY_EXCLUDE_CHECKS",
  seed: "FILE_LIBRARY_SEED",
  shuffle: "FILE_LIBRARY_SHUFFLE",
  fuzzRuns: "FILE_LIBRARY_FUZZ_RUNS",
  maxRequests: "FILE_LIBRARY_MAX_REQUESTS",
  requestTimeoutMs: "FILE_LIBRARY_REQUEST_TIMEOUT_MS",
  maxResponseBytes: "FILE_LIBRARY_MAX_RESPONSE_BYTES",
  maxResponseMs: "FILE_LIBRARY_MAX_RESPONSE_MS",
  rateLimit: "FILE_LIBRARY_RATE_LIMIT",
  maxRetryWaitMs: "FILE_LIBRARY_MAX_RETRY_WAIT_MS",
  maxTotalWaitMs: "FILE_LIBRARY_MAX_TOTAL_WAIT_MS",
  specFile: "FILE_LIBRARY_SPEC",
  reportDir: "FILE_LIBRARY_REPORT_DIR",
  mockUrl: "FILE_LIBRARY_MOCK_URL",
  requestsBefore: "FILE_LIBRARY_REQUESTS_BEFORE",
  stepSummaryFile: "GITHUB_STEP_SUMMARY",
} as const satisfies Record<keyof SuiteSettingsInput, string>;

/** Every setting of a run, parsed and checked: what the engine (engine/check-server.ts) is given. */
export interface SuiteSettings {
  baseUrl: string | undefined;
  apiKey: string | undefined;
  fileId: string | undefined;
  writeChecks: boolean;
  checks: string[];
  excludeChecks: string[];
  seed: number | undefined;
  shuffle: boolean;
  fuzzRuns: number;
  maxRequests: number | undefined;
  requestTimeoutMs: number;
  maxResponseBytes: number;
  maxResponseMs: number;
  rateLimits: RateLimitSettings;
  specFile: string | undefined;
  reportDir: string | undefined;
  mockUrl: string | undefined;
  requestsBefore: number;
  stepSummaryFile: string | undefined;
}

type Environment = Readonly<Record<string, string | undefined>>;

const PER = { s: 1, m: 60, h: 3600 } as const;

/** Reads a rate as Schemathesis writes it: `N/s`, `N/m` or `N/h`; resolves to requests per second. */
export function parseRate(text: string, setting = "--rate-limit (FILE_LIBRARY_RATE_LIMIT)"): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*\/\s*([smh])\s*$/.exec(text);
  const count = Number(match?.[1]);
  if (!match || !(count > 0))
    throw new SettingError(
      setting,
      `takes requests per second, minute or hour, such as 10/s or 300/m, got ${JSON.stringify(text)}`,
    );
  return count / PER[match[2] as keyof typeof PER];
}

/** Parses every setting from `env`; throws SettingError, naming the variable, on a value it cannot use. */
export function readSettings(env: Environment): SuiteSettings {
  const text = (key: keyof typeof VARIABLES): string | undefined => {
    const value = env[VARIABLES[key]];
    return value === undefined || value.trim() === "" ? undefined : value;
  };
  const flag = (key: keyof typeof VARIABLES): boolean => {
    const value = text(key)?.trim();
    if (value === undefined) return false;
    if (/^(1|true|yes|on)$/i.test(value)) return true;
    if (/^(0|false|no|off)$/i.test(value)) return false;
    throw new SettingError(VARIABLES[key], `takes 1 or 0 (true or false), got ${JSON.stringify(value)}`);
  };
  const number = (
    key: keyof typeof VARIABLES,
    what: { whole?: boolean; min: number; above?: boolean },
  ): number | undefined => {
    const value = text(key);
    if (value === undefined) return undefined;
    const parsed = Number(value);
    const fits =
      Number.isFinite(parsed) &&
      (what.above ? parsed > what.min : parsed >= what.min) &&
      (!what.whole || Number.isInteger(parsed));
    if (!fits) {
      const kind = what.whole ? "a whole number" : "a number";
      throw new SettingError(
        VARIABLES[key],
        `takes ${kind} ${what.above ? "above" : "of at least"} ${what.min}, got ${JSON.stringify(value)}`,
      );
    }
    return parsed;
  };
  const list = (key: keyof typeof VARIABLES): string[] =>
    (text(key) ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
  const positive = { min: 0, above: true };
  const count = { whole: true, min: 1 };
  const ms = { min: 0 };

  let baseUrl = text("baseUrl")?.trim();
  if (baseUrl !== undefined) {
    const parsed = parseBaseUrl(baseUrl);
    if (!parsed.ok) throw new SettingError(VARIABLES.baseUrl, parsed.problem);
    baseUrl = parsed.url;
  }
  const seed = text("seed");
  if (seed !== undefined && !/^\s*-?\d+\s*$/.test(seed))
    throw new SettingError(VARIABLES.seed, `takes a whole number, got ${JSON.stringify(seed)}`);
  const rate = text("rateLimit");
  const stepSummaryFile = text("stepSummaryFile");
  // Checked before the run rather than found at its end: by then the checks ran, and the verdict would be an ENOENT.
  if (stepSummaryFile !== undefined && !existsSync(path.dirname(path.resolve(stepSummaryFile)))) {
    throw new SettingError(
      VARIABLES.stepSummaryFile,
      `names ${stepSummaryFile}, in a folder that does not exist: GitHub Actions sets it to a file of its own, so unset it, or point it at a file in a folder that exists`,
    );
  }
  return {
    baseUrl,
    apiKey: text("apiKey"),
    fileId: text("fileId"),
    writeChecks: flag("writeChecks"),
    checks: list("checks"),
    excludeChecks: list("excludeChecks"),
    seed: seed === undefined ? undefined : Number(seed),
    shuffle: flag("shuffle"),
    fuzzRuns: number("fuzzRuns", count) ?? 5,
    maxRequests: number("maxRequests", count),
    requestTimeoutMs: number("requestTimeoutMs", positive) ?? 10_000,
    maxResponseBytes: number("maxResponseBytes", count) ?? DEFAULT_MAX_RESPONSE_BYTES,
    maxResponseMs: number("maxResponseMs", positive) ?? DEFAULT_MAX_RESPONSE_MS,
    rateLimits: {
      maxWaitMs: number("maxRetryWaitMs", ms) ?? 10_000,
      maxTotalWaitMs: number("maxTotalWaitMs", ms) ?? 60_000,
      perSecond: rate === undefined ? undefined : parseRate(rate),
    },
    specFile: text("specFile"),
    reportDir: text("reportDir"),
    mockUrl: text("mockUrl"),
    requestsBefore: number("requestsBefore", { whole: true, min: 0 }) ?? 0,
    stepSummaryFile,
  };
}

/** The options as environment variables, for the suite's own process; options left out are not set. */
export function settingsEnvironment(input: SuiteSettingsInput): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, variable] of Object.entries(VARIABLES) as Array<[keyof SuiteSettingsInput, string]>) {
    const value = input[key];
    if (value === undefined) continue;
    env[variable] =
      typeof value === "boolean" ? (value ? "1" : "0") : Array.isArray(value) ? value.join(",") : String(value);
  }
  return env;
}

/** This process's environment, for a runner to start from. */
export const processEnvironment = (): Record<string, string | undefined> => process.env;
