// covers: contract-tests/runner/preflight.ts, contract-tests/run/startup-read.ts, contract-tests/run/run-summary.ts, contract-tests/http/rate-limits.ts, contract-tests/run-suite.ts
// A 429 to the start-up read says nothing of the key or the file: it is waited out within the run's caps, judged and
// counted as any answer, and the key and the file are judged on the answer after it (docs/decisions.md,
// D22, D16).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "node:http";
import { liveOptions, runContractSuite, SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { hostileFirstAnswer } from "../support/hostile-first-answer.ts";
import { onLoopback } from "../support/hostile-server.ts";
import { sandbox } from "../support/sandbox.ts";
import { virtualClock } from "../support/virtual-clock.ts";

let sb: Awaited<ReturnType<typeof sandbox>>;
beforeAll(async () => {
  sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
});
afterAll(() => sb.close());

/** Runs the suite against a server whose first answer is `kind`, in front of the sandbox. */
async function runBehind(
  kind: "rate-limited" | "rate-limited-for-an-hour",
  extra: Parameters<typeof liveOptions>[1] = {},
) {
  const server = await hostileFirstAnswer(kind, sb.baseUrl);
  try {
    // The waits on a virtual clock: the caps hold on its time, and no Retry-After is waited for real.
    return await runContractSuite(liveOptions(server.origin, { waitClock: virtualClock(), ...extra }));
  } finally {
    await server.close();
  }
}

describe("a start-up read answered 429 first", { timeout: 120_000 }, () => {
  it("Retry-After: 1, then a refused key: waited out, then exit 2 naming FILE_LIBRARY_API_KEY, no check run", async () => {
    const run = await runBehind("rate-limited", { apiKey: "a-rotated-key-0000" });
    expect(run.exitCode, run.output).toBe(2);
    expect(run.summary.stopped).toEqual({
      reason: expect.stringMatching(/^the server refused FILE_LIBRARY_API_KEY \(HTTP 401 to GET /),
      atStart: true,
    });
    expect(run.summary.checks).toEqual([]);
    expect(run.output).not.toContain("a-rotated-key-0000");
  });

  it("Retry-After: 3600: exit 2 at once, naming the cap per wait, no check run", async () => {
    const started = performance.now();
    const run = await runBehind("rate-limited-for-an-hour");
    expect(run.exitCode, run.output).toBe(2);
    expect(run.summary.stopped).toEqual({
      reason: expect.stringMatching(
        /^the server rate-limited the run: it asked to wait 3600 s \(retry-after\), over the cap of 10 s per wait \(FILE_LIBRARY_MAX_RETRY_WAIT_MS raises it\)/,
      ),
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

describe("a start-up read answered 429 every time", { timeout: 60_000 }, () => {
  /** Runs the suite against a server that answers every request 429, asking for 100 ms, and counts what it received. */
  async function runAgainstEvery429(extra: Parameters<typeof liveOptions>[1]) {
    let received = 0;
    const server = await onLoopback(
      createServer((req, res) => {
        received++;
        req.resume();
        res
          .writeHead(429, { "content-type": "application/json", "retry-after-ms": "100", "x-request-id": "every-429" })
          .end(JSON.stringify({ detail: "Rate limit exceeded" }));
      }),
    );
    try {
      return { run: await runContractSuite(liveOptions(server.origin, extra)), received };
    } finally {
      await server.close();
    }
  }

  it("stops at the cap per run: exit 2, the line naming FILE_LIBRARY_MAX_TOTAL_WAIT_MS", async () => {
    const { run, received } = await runAgainstEvery429({ maxTotalWaitMs: 250 });
    expect(run.exitCode, run.output).toBe(2);
    expect(run.summary.stopped?.reason).toMatch(
      /^the server rate-limited the run: waiting out its 429s took 0\.2 s, .* per run \(FILE_LIBRARY_MAX_TOTAL_WAIT_MS raises it\)/,
    );
    expect(received).toBe(3);
  });

  it("counts each attempt against the request budget: exit 2 naming FILE_LIBRARY_MAX_REQUESTS once it is spent", async () => {
    const { run, received } = await runAgainstEvery429({ maxRequests: 4 });
    expect(run.exitCode, run.output).toBe(2);
    expect(run.summary.stopped?.reason).toBe(
      "the server rate-limited the run's start-up read until the run's request budget of 4 is spent (FILE_LIBRARY_MAX_REQUESTS raises it).",
    );
    expect(received).toBe(4);
  });
});
