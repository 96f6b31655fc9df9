import { describe, expect, it } from "vitest";
import { levelledLogger, logLevel, type Logger } from "../../src/logger.ts";
import { InvalidArgumentError } from "../../src/errors.ts";

const recording = () => {
  const lines: string[] = [];
  const logger: Logger = {
    debug: (m) => lines.push(`debug ${m}`),
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
  return { lines, logger };
};

describe("levelledLogger", () => {
  it.each([
    ["debug", ["debug file-library: d", "info file-library: i"]],
    ["info", ["info file-library: i"]],
    ["warn", []],
    ["off", []],
  ] as const)("at %s logs %j", (level, expected) => {
    const { lines, logger } = recording();
    const log = levelledLogger(logger, level);
    log.debug?.("d");
    log.info?.("i");
    expect(lines).toEqual(expected);
    // A level that is off has no function: its message is never built.
    expect(log.debug === undefined).toBe(level !== "debug");
  });
});

describe("the log level", () => {
  it("is the option's, else FILE_LIBRARY_LOG's when it is set and not empty, else warn", () => {
    expect(logLevel(undefined, undefined)).toBe("warn");
    expect(logLevel(undefined, "")).toBe("warn");
    expect(logLevel(undefined, "debug")).toBe("debug");
    expect(logLevel("off", "debug")).toBe("off");
  });

  it("refuses an unknown level, naming where it came from and the known ones", () => {
    expect(() => logLevel(undefined, "loud")).toThrow(
      new InvalidArgumentError('FILE_LIBRARY_LOG must be one of debug, info, warn, error, off, got "loud".'),
    );
    expect(() => logLevel("Info", "debug")).toThrow(
      new InvalidArgumentError('logLevel must be one of debug, info, warn, error, off, got "Info".'),
    );
  });
});
