// covers: contract-tests/http/transport.ts, contract-tests/run/run-checks.ts, sandbox/testing/faults.ts, sandbox/testing/variation.ts
// Every documented correct variant passes with default settings, read-only as well as with writes (contract-live's
// "no false alarms"), within the read-only budget of 100 requests (docs/decisions.md, D23).
import { describe, expect, it } from "vitest";
import { legitimateVariants } from "../../sandbox/testing/index.ts";
import { suiteAgainstSandbox } from "../support/contract-suite.ts";

// Variants whose read-only run another file makes, with these assertions and more: not run twice.
const readOnlyElsewhere = new Set(["rate-limited", "drops-kept-alive-connections"]);

describe.concurrent("no false alarms, read-only: the suite passes every variant that keeps the contract, with default settings", {
  timeout: 120_000,
}, () => {
  it.each(Object.keys(legitimateVariants).filter((variant) => !readOnlyElsewhere.has(variant)))(
    "%s",
    async (variant) => {
      const run = await suiteAgainstSandbox({ variant });
      expect(run.exitCode, run.output).toBe(0);
      expect(run.summary.stopped).toBeUndefined();
      expect(run.summary.totals.requests).toBeLessThanOrEqual(100);
      expect(run.fileAfter).toEqual(run.fileBefore);
    },
  );
});
