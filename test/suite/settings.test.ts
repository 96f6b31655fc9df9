// covers: contract-tests/run/settings.ts, contract-tests/run/run-context.ts, contract-tests/http/request-budget.ts, contract-tests/run/target.ts
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mkdtemp } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { runSuite } from "../../contract-tests/index.ts";
import { createRunContext, RequestBudgetError } from "../../contract-tests/run/run-context.ts";
import {
  readSettings,
  SettingError,
  settingsEnvironment,
  VARIABLES,
  type SuiteSettingsInput,
} from "../../contract-tests/run/settings.ts";
import { liveTarget } from "../../contract-tests/run/target.ts";
import { loadBundledSpec } from "../../lib/openapi/load.ts";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { trackedFiles } from "../support/tracked-files.ts";

describe("the suite's settings", () => {
  it("has a default for every setting it does not need", () => {
    expect(readSettings({})).toEqual({
      baseUrl: undefined,
      apiKey: undefined,
      fileId: undefined,
      writeChecks: false,
      checks: [],
      excludeChecks: [],
      seed: undefined,
      shuffle: false,
      fuzzRuns: 5,
      maxRequests: undefined,
      requestTimeoutMs: 10_000,
      maxResponseBytes: 1_048_576,
      maxResponseMs: 5_000,
      rateLimits: { maxWaitMs: 10_000, maxTotalWaitMs: 60_000, perSecond: undefined },
      specFile: undefined,
      reportDir: undefined,
      mockUrl: undefined,
      requestsBefore: 0,
      stepSummaryFile: undefined,
    });
  });

  it("reads back, as options, every setting that options write as environment variables", () => {
    const input: Required<SuiteSettingsInput> = {
      baseUrl: "https://files.example.com/api/",
      apiKey: "k-1",
      fileId: "file 1",
      writeChecks: true,
      checks: ["auth_required", "update_persisted"],
      excludeChecks: ["max_response_time"],
      seed: -42,
      shuffle: true,
      fuzzRuns: 3,
      maxRequests: 50,
      requestTimeoutMs: 2_500,
      maxResponseBytes: 4_096,
      maxResponseMs: 750,
      rateLimit: "120/m",
      maxRetryWaitMs: 0,
      maxTotalWaitMs: 1_000,
      specFile: "/tmp/openapi.json",
      reportDir: "out/reports",
      mockUrl: "http://127.0.0.1:4010",
      requestsBefore: 2,
      stepSummaryFile: "/tmp/summary.md",
    };
    const env = settingsEnvironment(input);
    expect(Object.keys(env).sort()).toEqual(Object.values(VARIABLES).sort());
    const { rateLimit, maxRetryWaitMs, maxTotalWaitMs, ...rest } = input;
    expect(readSettings(env)).toEqual({
      ...rest,
      // The base URL as the client uses it: no trailing slash.
      baseUrl: "https://files.example.com/api",
      rateLimits: { perSecond: 2, maxWaitMs: maxRetryWaitMs, maxTotalWaitMs },
    });
    expect(readSettings(settingsEnvironment({ writeChecks: false, shuffle: false }))).toMatchObject({
      writeChecks: false,
      shuffle: false,
    });
  });

  it.each([
    ["FILE_LIBRARY_BASE_URL", "files example", /^FILE_LIBRARY_BASE_URL .*absolute/],
    [
      "FILE_LIBRARY_BASE_URL",
      "files.example.com",
      /^FILE_LIBRARY_BASE_URL "files\.example\.com" has no scheme: did you mean https:\/\/files\.example\.com\?$/,
    ],
    ["FILE_LIBRARY_WRITE_CHECKS", "maybe", /^FILE_LIBRARY_WRITE_CHECKS takes 1 or 0 \(true or false\), got "maybe"$/],
    ["FILE_LIBRARY_SEED", "12abc", /^FILE_LIBRARY_SEED takes a whole number, got "12abc"$/],
    ["FILE_LIBRARY_FUZZ_RUNS", "0", /^FILE_LIBRARY_FUZZ_RUNS takes a whole number of at least 1, got "0"$/],
    ["FILE_LIBRARY_MAX_REQUESTS", "ten", /^FILE_LIBRARY_MAX_REQUESTS takes a whole number of at least 1, got "ten"$/],
    [
      "FILE_LIBRARY_MAX_RESPONSE_BYTES",
      "1.5",
      /^FILE_LIBRARY_MAX_RESPONSE_BYTES takes a whole number of at least 1, got "1.5"$/,
    ],
    ["FILE_LIBRARY_REQUEST_TIMEOUT_MS", "0", /^FILE_LIBRARY_REQUEST_TIMEOUT_MS takes a number above 0, got "0"$/],
    ["FILE_LIBRARY_MAX_RESPONSE_MS", "-5", /^FILE_LIBRARY_MAX_RESPONSE_MS takes a number above 0, got "-5"$/],
    [
      "FILE_LIBRARY_MAX_TOTAL_WAIT_MS",
      "soon",
      /^FILE_LIBRARY_MAX_TOTAL_WAIT_MS takes a number of at least 0, got "soon"$/,
    ],
    ["FILE_LIBRARY_RATE_LIMIT", "fast", /^--rate-limit \(FILE_LIBRARY_RATE_LIMIT\) takes requests per second/],
  ])("refuses %s=%s with an error that names it", (variable, value, message) => {
    let error: unknown;
    try {
      readSettings({ [variable]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SettingError);
    expect((error as SettingError).message).toMatch(message);
    expect((error as SettingError).setting).toContain(variable);
  });

  it("a live target needs its key and its file id, and says which is missing", () => {
    const settings = readSettings({ FILE_LIBRARY_BASE_URL: "https://files.example.com" });
    expect(() => liveTarget(settings)).toThrow(/^FILE_LIBRARY_API_KEY is not set/);
    expect(() => liveTarget({ ...settings, apiKey: "k" })).toThrow(/^FILE_LIBRARY_FILE_ID is not set/);
    expect(liveTarget({ ...settings, apiKey: "k", fileId: "f" })).toEqual({
      mode: "live",
      baseUrl: "https://files.example.com",
      apiKey: "k",
      fileId: "f",
      writeChecks: false,
    });
    expect(liveTarget(readSettings({}))).toBeUndefined();
  });

  it("runSuite refuses a bad option before it starts anything: exit 2, and the summary names the setting", async () => {
    const reportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-settings-"));
    const run = await runSuite({
      env: {},
      baseUrl: "https://files.example.com",
      apiKey: "k",
      fileId: "f",
      maxRequests: 0,
      reportDir,
    });
    expect(run.exitCode).toBe(2);
    expect(run.summary?.stopped).toEqual({
      reason: 'FILE_LIBRARY_MAX_REQUESTS takes a whole number of at least 1, got "0"',
      atStart: true,
    });
  });

  it("no module of the suite but the settings reads process.env", () => {
    const readers = trackedFiles()
      .filter((file) => /^contract-tests\/.+\.ts$/.test(file))
      .filter((file) =>
        readFileSync(fromRoot(file), "utf8")
          .split("\n")
          .some((line) => /process\.env\b/.test(line) && !/^\s*(\/\/|\*|\/\*\*)/.test(line)),
      );
    expect(readers).toEqual(["contract-tests/run/settings.ts"]);
  });
});

describe("the run context", () => {
  const spec = loadBundledSpec(fromRoot("dist/openapi.json"), "npm run build:spec");
  const live = { mode: "live", baseUrl: "http://127.0.0.1:9", apiKey: "k", fileId: "f", writeChecks: false } as const;

  it("holds one budget per run, from the settings or the target's mode", () => {
    const settings = { ...readSettings({}), seed: 1 };
    expect(createRunContext({ settings, target: live }, spec).budget.limit).toBe(100);
    expect(createRunContext({ settings, target: { ...live, writeChecks: true } }, spec).budget.limit).toBe(300);
    expect(createRunContext({ settings, target: { ...live, mode: "mock" } }, spec).budget.limit).toBe(
      Number.POSITIVE_INFINITY,
    );
    const context = createRunContext({ settings: { ...settings, maxRequests: 2 }, target: live }, spec);
    context.budget.take();
    context.budget.take();
    expect(context.budget.sent).toBe(2);
    expect(() => context.budget.take()).toThrow(RequestBudgetError);
    expect(() => context.budget.take()).toThrow(
      "the run's request budget of 2 is spent (FILE_LIBRARY_MAX_REQUESTS raises it)",
    );
    // Another run's context starts afresh: nothing of a run lives in a module.
    expect(createRunContext({ settings: { ...settings, maxRequests: 2 }, target: live }, spec).budget.sent).toBe(0);
  });

  it("gives the transport the run's limits and the rate limiter its pace", () => {
    const settings = readSettings({
      FILE_LIBRARY_REQUEST_TIMEOUT_MS: "1234",
      FILE_LIBRARY_MAX_RESPONSE_BYTES: "999",
      FILE_LIBRARY_RATE_LIMIT: "5/s",
    });
    const context = createRunContext({ settings: { ...settings, seed: 1 }, target: live }, spec);
    expect(context.transport.limits).toEqual({ timeoutMs: 1234, maxBytes: 999 });
    expect(context.rateLimiter.settings.perSecond).toBe(5);
  });
});
