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

/** The level of the `logLevel` option, else of FILE_LIBRARY_LOG, else `warn`; an unknown one is refused, saying where it came from and which are known. */
export function logLevel(option: string | undefined, env: string | undefined): LogLevel {
  const level = option ?? (env || "warn");
  if (!(LEVELS as readonly string[]).includes(level)) {
    throw new InvalidArgumentError(
      `${option === undefined ? "FILE_LIBRARY_LOG" : "logLevel"} must be one of ${LEVELS.join(", ")}, got ${JSON.stringify(level)}.`,
    );
  }
  return level as LogLevel;
}

/**
 * The client's own log: a level that is off has no function, so that `log.debug?.(\`...\`)` does not even build its
 * message (none is on for a call that succeeds at once, by default).
 */
export interface ClientLog {
  debug?: ((message: string) => void) | undefined;
  info?: ((message: string) => void) | undefined;
}

/** A log that keeps the levels from `level` up, and prefixes their messages. */
export function levelledLogger(logger: Logger, level: LogLevel): ClientLog {
  const at = (name: "debug" | "info") =>
    LEVELS.indexOf(name) >= LEVELS.indexOf(level)
      ? (message: string) => logger[name](`file-library: ${message}`)
      : undefined;
  return { debug: at("debug"), info: at("info") };
}
