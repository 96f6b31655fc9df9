// covers: contract-tests/runner/preflight.ts, contract-tests/run/startup-read.ts, contract-tests/run/run-summary.ts, contract-tests/http/rate-limits.ts, contract-tests/run-suite.ts
// A 429 to the start-up read says nothing of the key or the file: it is waited out within the run's caps, judged and
// counted as any answer, and the key and the file are judged on the answer after it (docs/decisions.md, "Before the
// first check", "Rate limits").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveOptions, runContractSuite, SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { hostileFirstAnswer } from "../support/hostile-first-answer.ts";
import { sandbox } from "../support/sandbox.ts";

let sb: Awaited<ReturnType<typeof sandbox>>;
beforeAll(async () => {
  sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
});
afterAll(() => sb.close());

/** Runs the suite against a server whose first answer is `kind`, in front of the sandbox. */
async function runBehind(kind: "rate-limited" | "rate-limited-for-an-hour", extra: Parameters<typeof liveOptions>[1] = {}) {
  const server = await hostileFirstAnswer(kind, sb.baseUrl);
  try {
    return await runContractSuite(liveOptions(server.origin, extra));
  } finally {
    await server.close();
  }
}

describe("a start-up read answered 429 first", { timeout: 120_000 }, () => {
  it("Retry-After: 1, then a refused key: waited out, then exit 2 naming FILE_LIBRARY_API_KEY, no check run", async () => {
    const run = await runBehind("rate-limited", { apiKey: "a-rotated-key-0000" });
    expect(run.exitCode, run.output).toBe(2);
    expect(run.summary.stopped).toEqual({ reason: expect.stringMatching(/^the server refused FILE_LIBRARY_API_KEY \(HTTP 401 to GET /), atStart: true });
    expect(run.summary.checks).toEqual([]);
    expect(run.output).not.toContain("a-rotated-key-0000");
  });

  it("Retry-After: 3600: exit 2 at once, naming the cap per wait, no check run", async () => {
    const started = performance.now();
    const run = await runBehind("rate-limited-for-an-hour");
    expect(run.exitCode, run.output).toBe(2);
    expect(run.summary.stopped).toEqual({
      reason: expect.stringMatching(/^the server rate-limited the run: it asked to wait 3600 s \(retry-after\), over the cap of 10 s per wait \(FILE_LIBRARY_MAX_RETRY_WAIT_MS raises it\)/),
      atStart: true,
    });
    expect(run.summary.checks).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("Retry-After: 1, then a correct answer: the run passes, counts both requests, and its coverage shows getFile's 429", async () => {
    const run = await runBehind("rate-limited");
    expect(run.exitCode, run.output).toBe(0);
    const getFile = run.summary.coverage.operations.find((o) => o.operation === "getFile")!;
    expect(getFile.documented.find((d) => d.status === "429")).toEqual({ status: "429", observed: true });
    const sent = run.summary.checks.reduce((n, c) => n + c.requests, 0);
    // The checks' own exchanges, the 429 and the read after it (the signed URL's fetches are requests of no operation).
    expect(run.summary.totals.requests).toBeGreaterThanOrEqual(sent + 2);
  });
});
