import { parseBaseUrl } from "./base-url.js";
import { InvalidArgumentError } from "./errors.js";
import { globalFetch, type Fetch } from "./fetch.js";
import { levelledLogger, logLevel, type ClientLog, type Logger, type LogLevel } from "./logger.js";
import { DEFAULT_MAX_RESPONSE_BYTES } from "./response-limit.js";
import { DEFAULT_MAX_RETRIES } from "./retry.js";

/** How long one attempt may take before it is aborted and counted as a connection failure. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Options of `createFileLibraryClient`; every one has a default. */
export interface ClientOptions {
  /** Scheme, host and port of the service, such as `https://files.example.com`. Default: `FILE_LIBRARY_BASE_URL`. */
  baseUrl?: string | undefined;
  /** The workspace API key, sent as `Authorization: Bearer <key>`. Default: `FILE_LIBRARY_API_KEY`. */
  apiKey?: string | undefined;
  /** The fetch implementation. Default: `globalThis.fetch` as it is at each call, so that mocks installed later (MSW) see the calls. */
  fetch?: Fetch | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
  /** Retries after a connection failure, a timeout, 408, 409, 429 or 5xx. Default 2; 0 disables. */
  maxRetries?: number | undefined;
  /** Time limit of each attempt, in milliseconds. Default 60 000. */
  timeoutMs?: number | undefined;
  /** The most bytes read from one answer (after decompression); past it the body is cut and the call fails. Default 1 MiB. */
  maxResponseBytes?: number | undefined;
  /** Where log lines go; `console` works. Default: `console`. */
  logger?: Logger | undefined;
  /** `debug` logs every attempt, `info` every retry. Default: FILE_LIBRARY_LOG, else `warn`. */
  logLevel?: LogLevel | undefined;
}

/** Options accepted by every method, for one call. */
export interface RequestOptions {
  /** Aborts the request and any wait before a retry; the call then rejects with `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Headers added to this request only. */
  headers?: Record<string, string> | undefined;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number | undefined;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number | undefined;
  /** Overrides the client's `maxResponseBytes` for this call. */
  maxResponseBytes?: number | undefined;
}

/** Client options with defaults applied and checked. */
export interface ResolvedOptions {
  baseUrl: string;
  apiKey: string;
  fetch: Fetch;
  headers: Record<string, string> | undefined;
  maxRetries: number;
  timeoutMs: number;
  maxResponseBytes: number;
  log: ClientLog;
}

function readEnv(name: string): string | undefined {
  try {
    return (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env[name];
  } catch {
    // An empty variable is unset too: every reader takes "" as it takes undefined. No `process` (browsers, workers), no env, or a runtime that refuses the read (Deno without --allow-env throws
    // NotCapable): the variable counts as unset, and options must be passed explicitly.
  }
}

/** Applies environment defaults and rejects unusable options with an error that says what to set. */
export function resolveOptions(options: ClientOptions = {}): ResolvedOptions {
  const parsed = parseBaseUrl(
    required(options, "baseUrl", "base URL", "FILE_LIBRARY_BASE_URL", ", such as https://files.example.com"),
  );
  if (!parsed.ok) throw new InvalidArgumentError(`The base URL ${parsed.problem}`);
  const apiKey = required(options, "apiKey", "API key", "FILE_LIBRARY_API_KEY");
  // fetch would reject such a header with a message that quotes it; we say what is wrong without the key.
  if (!/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new InvalidArgumentError(
      "The API key has a character a header cannot carry: check FILE_LIBRARY_API_KEY for a space or newline.",
    );
  }
  if (typeof (options.fetch ?? globalThis.fetch) !== "function") {
    throw new InvalidArgumentError("This runtime has no global fetch: pass { fetch }.");
  }
  return {
    baseUrl: parsed.url,
    apiKey,
    fetch: options.fetch ?? globalFetch,
    headers: options.headers,
    maxRetries: checkNumber("maxRetries", options.maxRetries ?? DEFAULT_MAX_RETRIES),
    timeoutMs: checkNumber("timeoutMs", options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    maxResponseBytes: checkNumber("maxResponseBytes", options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES),
    log: levelledLogger(options.logger ?? console, logLevel(options.logLevel, readEnv("FILE_LIBRARY_LOG"))),
  };
}

/** The options that are numbers, and may be set per call too. */
export type NumericOption = "maxRetries" | "timeoutMs" | "maxResponseBytes";

/** Rejects a value of a numeric option that it cannot take, saying which it can. */
export function checkNumber(name: NumericOption, value: number): number {
  const timeout = name === "timeoutMs";
  const min = name === "maxRetries" ? 0 : 1;
  // setTimeout cannot wait longer than 2^31-1 ms (a larger value would fire at once); a timeout may be a fraction over 0.
  if (!(value > min - 1 && (timeout ? value < 2 ** 31 : Number.isInteger(value)))) {
    throw new InvalidArgumentError(
      `${name} must be a ${timeout ? "number of milliseconds from 1 to 2147483647" : `whole number of at least ${min}`}, got ${String(value)}.`,
    );
  }
  return value;
}

/** The option, else its environment variable; missing or blank, an error that says what to set. */
function required(options: ClientOptions, name: "baseUrl" | "apiKey", what: string, env: string, example = ""): string {
  const value = options[name] ?? readEnv(env);
  if (!value?.trim()) throw new InvalidArgumentError(`No ${what}: pass { ${name} } or set ${env}${example}.`);
  return value;
}
