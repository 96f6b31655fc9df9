// covers: contract-tests/http/rate-limits.ts, contract-tests/run/handshake.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exitCodeOf } from "../../lib/process.ts";
import { liveEnvironment, liveOptions, runContractSuite, suiteAgainstSandbox, type ContractRun } from "../support/contract-suite.ts";
import { startScript } from "../support/processes.ts";

/** A server that answers every request 429 with this Retry-After, as an overloaded gateway. */
async function alwaysRateLimited(retryAfter: string): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(429, { "content-type": "application/json", "retry-after": retryAfter, "x-request-id": "rl-1" });
    res.end(JSON.stringify({ code: "rate_limited", message: "Slow down." }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const saw429 = (run: ContractRun) =>
  run.summary.coverage.operations.every((o) => o.documented.some((d) => d.status === "429" && d.observed));

// Concurrently: most of each run is waiting out 429s, and each run has a sandbox of its own.
describe.concurrent("a correct server that rate-limits the suite (429 with Retry-After: 1 to every seventh request)", { timeout: 180_000 }, () => {
  it("passes a read-only run within 100 requests, each 429 waited out, seen and inspected", async () => {
    const run = await suiteAgainstSandbox({ variant: "rate-limited" });
    expect(run.exitCode, run.output).toBe(0);
    expect(run.summary.totals.failed).toBe(0);
    expect(run.summary.totals.requests).toBeLessThanOrEqual(100);
    expect(saw429(run), "every operation's coverage shows its 429").toBe(true);
    expect(run.fileBefore).toMatchObject({ id: "doc-1" });
    expect(run.fileAfter).toEqual(run.fileBefore);
  });

  it("passes a run with write checks, and puts the file back", async () => {
    const run = await suiteAgainstSandbox({ variant: "rate-limited" }, { writeChecks: true });
    expect(run.exitCode, run.output).toBe(0);
    expect(run.summary.totals).toMatchObject({ failed: 0, skipped: 0 });
    expect(saw429(run)).toBe(true);
    expect(run.fileBefore).toMatchObject({ id: "doc-1" });
    expect(run.fileAfter).toEqual(run.fileBefore);
  });
});

describe.concurrent("a server that rate-limits past the caps: the run cannot finish", { timeout: 120_000 }, () => {
  let slow: Awaited<ReturnType<typeof alwaysRateLimited>>;
  let endless: Awaited<ReturnType<typeof alwaysRateLimited>>;
  beforeAll(async () => {
    slow = await alwaysRateLimited("30");
    endless = await alwaysRateLimited("1");
  });
  afterAll(() => Promise.all([slow.close(), endless.close()]));

  it("a wait over the cap per wait ends the run at once with exit 2, failing no check", async () => {
    const run = await runContractSuite(liveOptions(slow.baseUrl));
    expect(run.exitCode).toBe(2);
    expect(run.summary.totals.failed).toBe(0);
    expect(run.summary.stopped?.reason).toMatch(/^the server rate-limited the run: it asked to wait 30 s \(retry-after\), over the cap of 10 s per wait/);
    expect(run.output).toContain(`STOPPED ${run.summary.stopped!.reason}`);
  });

  it("npm run contract: waits past the cap per run end it with exit 2 and one line saying so", async () => {
    const child = startScript("scripts/contract.ts", [], {
      ...process.env,
      ...liveEnvironment(endless.baseUrl, { maxTotalWaitMs: 2500, writeChecks: false }),
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exitCodeOf(child)).toBe(2);
    const ours = stderr.split("\n").filter((line) => line.startsWith("contract: "));
    expect(ours).toEqual([
      expect.stringMatching(
        /^contract: cannot finish: the server rate-limited the run: waiting out its 429s took 2\.0 s, and the next wait of 1\.0 s would pass the cap of 2\.5 s per run \(FILE_LIBRARY_MAX_TOTAL_WAIT_MS raises it\)\. Pace the run with --rate-limit N\/s, or raise the cap\.$/,
      ),
    ]);
  });
});

describe("shrinking a failure within the request budget", { timeout: 120_000 }, () => {
  it("stops when the budget is spent, keeps the failure, and says that shrinking stopped early", async () => {
    const run = await suiteAgainstSandbox(
      { fault: "non-ascii-labels-refused" },
      { writeChecks: true, checks: ["positive_data_acceptance"], maxRequests: 7 },
    );
    expect(run.exitCode, run.output).toBe(1);
    const problem = run.summary.checks.find((c) => c.check === "positive_data_acceptance" && c.state === "failed")?.failures[0]?.problem;
    expect(problem).toMatch(/input after shrinking: .*; shrinking stopped early: the request budget of 7 is spent; seed 20261123/);
    // Putting the file back is sent past the budget.
    expect(run.fileBefore).toMatchObject({ id: "doc-1" });
    expect(run.fileAfter).toEqual(run.fileBefore);
  });
});
