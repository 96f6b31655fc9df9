// covers: contract-tests/http/rate-limits.ts, contract-tests/run-suite.ts, contract-tests/run/run-summary.ts, contract-tests/run/run-checks.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  liveOptions,
  runContractSuite,
  SANDBOX_FIXTURES,
  suiteAgainstSandbox,
  type ContractRun,
} from "../support/contract-suite.ts";
import { alwaysRateLimited } from "../support/rate-limited-server.ts";
import { sandbox } from "../support/sandbox.ts";
import { virtualClock } from "../support/virtual-clock.ts";

const saw429 = (run: ContractRun) =>
  run.summary.coverage.operations.every((o) => o.documented.some((d) => d.status === "429" && d.observed));

// Concurrently: most of each run is waiting out 429s, and each run has a sandbox of its own.
describe.concurrent("a correct server that rate-limits the suite (429 with Retry-After: 1 to every seventh request)", {
  timeout: 180_000,
}, () => {
  it("passes a read-only run within 100 requests, each 429 waited out, seen and inspected, with every check run", async () => {
    const clock = virtualClock();
    const run = await suiteAgainstSandbox({ variant: "rate-limited" }, { waitClock: clock });
    expect(run.exitCode, run.output).toBe(0);
    // Each 429 asked for a second, and the run waited it out on its clock: virtual here, so no second passes.
    expect(clock.slept).toBeGreaterThanOrEqual(1000);
    // Only the write checks are skipped (by design, read-only): none for want of budget.
    expect(run.summary.totals).toMatchObject({ failed: 0, notRun: 0, skipped: 5 });
    expect(run.summary.checks.filter((c) => c.state === "skipped").map((c) => c.note)).toEqual(
      Array(5).fill("read-only run: set FILE_LIBRARY_WRITE_CHECKS=1 to check updates of the file"),
    );
    expect(run.summary.totals.requests).toBeLessThanOrEqual(100);
    expect(saw429(run), "every operation's coverage shows its 429").toBe(true);
    expect(run.fileBefore).toMatchObject({ id: "doc-1" });
    expect(run.fileAfter).toEqual(run.fileBefore);
  });

  it("passes a run with write checks, and puts the file back", async () => {
    const run = await suiteAgainstSandbox(
      { variant: "rate-limited" },
      { writeChecks: true, waitClock: virtualClock() },
    );
    expect(run.exitCode, run.output).toBe(0);
    expect(run.summary.totals).toMatchObject({ failed: 0, skipped: 0, notRun: 0 });
    expect(saw429(run)).toBe(true);
    expect(run.fileBefore).toMatchObject({ id: "doc-1" });
    expect(run.fileAfter).toEqual(run.fileBefore);
  });
});

// The 429s spent the budget before the strict auth_required check on the download ran, and the run passed unchecked.
describe("a broken server behind the same gateway", { timeout: 180_000 }, () => {
  it("fails read-only: its download takes an empty bearer token, and auth_required runs and says so", async () => {
    const run = await suiteAgainstSandbox(
      { variant: "rate-limited", fault: "empty-bearer-passes-on-download" },
      { waitClock: virtualClock() },
    );
    expect(run.exitCode, run.output).toBe(1);
    expect(run.summary.totals.notRun).toBe(0);
    expect(run.summary.checks.filter((c) => c.state === "failed").map((c) => `${c.operation} ${c.check}`)).toEqual([
      "getFileDownloadUrl auth_required",
    ]);
  });
});

describe("a run that cannot get to every check it was asked for", { timeout: 120_000 }, () => {
  it("exits 2, naming each check that did not run and why, and counts none as passed", async () => {
    const run = await suiteAgainstSandbox({}, { maxRequests: 40 });
    expect(run.exitCode, run.output).toBe(2);
    const notRun = run.summary.checks.filter((c) => c.state === "not run");
    expect(notRun.length).toBeGreaterThan(0);
    expect(run.summary.totals.notRun).toBe(notRun.length);
    for (const c of notRun)
      expect(c.note).toBe("not run: the run's request budget of 40 is spent (FILE_LIBRARY_MAX_REQUESTS raises it)");
    expect(run.summary.stopped?.reason).toBe(
      `${notRun.length} selected checks did not run: ${notRun.map((c) => `${c.operation} ${c.check}`).join(", ")} (the run's request budget of 40 is spent (FILE_LIBRARY_MAX_REQUESTS raises it))`,
    );
    expect(run.summary.totals.requests).toBeLessThanOrEqual(40);
  });
});

describe.concurrent("a server that rate-limits past the caps: the run cannot finish", { timeout: 120_000 }, () => {
  let slow: Awaited<ReturnType<typeof alwaysRateLimited>>;
  let upstream: Awaited<ReturnType<typeof sandbox>>;
  beforeAll(async () => {
    upstream = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
    slow = await alwaysRateLimited("30", upstream.baseUrl);
  });
  afterAll(() => Promise.all([slow.close(), upstream.close()]));

  it("a wait over the cap per wait ends the run at once with exit 2, failing no check", async () => {
    const run = await runContractSuite(liveOptions(slow.baseUrl));
    expect(run.exitCode).toBe(2);
    expect(run.summary.totals.failed).toBe(0);
    expect(run.summary.stopped?.reason).toMatch(
      /^the server rate-limited the run: it asked to wait 30 s \(retry-after\), over the cap of 10 s per wait/,
    );
    expect(run.output).toContain(`STOPPED ${run.summary.stopped!.reason}`);
  });
});

const BUDGET = 14;

describe("shrinking a failure within the request budget", { timeout: 120_000 }, () => {
  it("stops when the budget is spent, keeps the failure, and says that shrinking stopped early", async () => {
    const run = await suiteAgainstSandbox(
      { fault: "non-ascii-labels-refused" },
      // The start-up read, getFile's one read, the two reads before the first update and the 8 SDK bodies take 12 (the
      // operations run in the spec's order); the generated inputs come next, and shrinking their failure spends the rest.
      { writeChecks: true, checks: ["positive_data_acceptance"], maxRequests: BUDGET },
    );
    expect(run.exitCode, run.output).toBe(1);
    const problem = run.summary.checks.find((c) => c.check === "positive_data_acceptance" && c.state === "failed")
      ?.failures[0]?.problem;
    expect(problem).toMatch(
      new RegExp(
        `input after shrinking: .*; shrinking stopped early: the request budget of ${BUDGET} is spent; seed 20261123`,
      ),
    );
    // Putting the file back is sent past the budget.
    expect(run.fileBefore).toMatchObject({ id: "doc-1" });
    expect(run.fileAfter).toEqual(run.fileBefore);
  });
});
