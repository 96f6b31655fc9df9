import { InvalidArgumentError } from "./errors.js";

/** Anything with these four methods logs for the client; `console` works. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** How much the client logs: `debug` one line per attempt, `info` one per retry, `off` nothing. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "off";

const LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "off"];

/** The default level: FILE_LIBRARY_LOG when set, else `warn`. */
export function defaultLogLevel(env: string | undefined): LogLevel {
  if (env === undefined || env === "") return "warn";
  return checkLogLevel(env, "FILE_LIBRARY_LOG");
}

/** Rejects a level that is not one of ours, saying which are. */
export function checkLogLevel(level: string, source = "logLevel"): LogLevel {
  if (!(LEVELS as readonly string[]).includes(level)) {
    throw new InvalidArgumentError(`${source} must be one of ${LEVELS.join(", ")}, got ${JSON.stringify(level)}.`);
  }
  return level as LogLevel;
}

/** The client's own log: messages are built only when their level is on (none are on the happy path by default). */
export interface ClientLog {
  debug(message: () => string): void;
  info(message: () => string): void;
}

/** A log that drops messages under `level`, builds the rest lazily and prefixes them. */
export function levelledLogger(logger: Logger, level: LogLevel): ClientLog {
  const threshold = LEVELS.indexOf(level);
  const enabled = (name: Exclude<LogLevel, "off">) => LEVELS.indexOf(name) >= threshold;
  const at = (name: "debug" | "info") => (message: () => string) => {
    if (enabled(name)) logger[name](`file-library: ${message()}`);
  };
  return { debug: at("debug"), info: at("info") };
}
