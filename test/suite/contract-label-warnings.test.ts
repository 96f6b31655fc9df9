// covers: contract-tests/checks/update-persisted.ts, contract-tests/run/run-summary.ts, contract-tests/report/summary-format.ts
// "Labels read back in another order, or with duplicates collapsed, are warned (once per kind in a run)"
// (docs/decisions.md, D06), read from real write runs against the sandbox's variants that keep labels so.
import { describe, expect, it } from "vitest";
import { stripVTControlCharacters } from "node:util";
import type { Wrapper } from "../../sandbox/testing/index.ts";
import { variation } from "../../sandbox/testing/index.ts";
import { FILE_ID, liveOptions, runContractSuite, SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { sandbox, storedMetadata } from "../support/sandbox.ts";

const AS_A_SET = `(warned, not failed: the service keeps "unique labels" and its own SDK's test compares them as a set; docs/decisions.md, D06)`;

/**
 * A write run of update_persisted against a sandbox playing `variant`, with the label lists of every update the sandbox
 * accepted (what the variant then stored differently, the test counts from them).
 */
async function writeRun(variant: string, seed?: number) {
  const accepted: unknown[][] = [];
  const { wrap } = variation({ variant });
  // Outside the variant: the update as the suite sent it, and whether it was taken.
  const recording: Wrapper = (service, context) => async (request) => {
    const answer = await wrap!(service, context)(request);
    if (request.method === "PUT" && answer.status === 200) {
      const labels = JSON.parse(new TextDecoder().decode(request.body)).labels;
      if (Array.isArray(labels)) accepted.push(labels);
    }
    return answer;
  };
  const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, wrap: recording });
  try {
    const before = await storedMetadata(sb.baseUrl, FILE_ID);
    const run = await runContractSuite(
      liveOptions(sb.baseUrl, {
        writeChecks: true,
        checks: ["update_persisted"],
        ...(seed === undefined ? {} : { seed }),
      }),
    );
    return { run, accepted, before, after: await storedMetadata(sb.baseUrl, FILE_ID) };
  } finally {
    await sb.close();
  }
}

describe("update_persisted warns once per kind, however many reads show it", { timeout: 120_000 }, () => {
  it.each([
    {
      variant: "labels-sorted",
      kind: "in another order",
      // The list of its own the check sends first, the classes' list, the lists of 101 to 1,001, generated ones.
      seed: undefined,
      times: 5,
      // Stored sorted: an update whose labels were not in order comes back in another.
      shows: (labels: unknown[]) => JSON.stringify(labels) !== JSON.stringify(labels.toSorted()),
    },
    {
      variant: "labels-deduplicated",
      kind: "with duplicates collapsed",
      // The classes' list has the one duplicate the suite sends on purpose; with this seed a generated list has one
      // too. (Another generator may need another seed: the count below says so.)
      seed: 16,
      times: 2,
      shows: (labels: unknown[]) => new Set(labels).size !== labels.length,
    },
  ])(
    "$variant: one warning of $kind, in the summary and on the console, and a pass",
    async ({ variant, kind, seed, times, shows }) => {
      const { run, accepted, before, after } = await writeRun(variant, seed);
      // The same kind, shown by many reads of the run.
      expect(accepted.filter(shows).length).toBeGreaterThanOrEqual(times);

      const check = run.summary.checks.find((c) => c.check === "update_persisted")!;
      expect(check.state, run.output).toBe("passed");
      // One warning, in the check's words: what was sent, what was read (each cut at 200 characters), the kind, why.
      expect(check.warnings).toHaveLength(1);
      const [warning] = check.warnings as [string];
      expect(warning).toMatch(/^updateFile update_persisted: after sending labels \[.+, getFile shows \[/);
      expect(warning.endsWith(`: the same labels ${kind} ${AS_A_SET}`), warning).toBe(true);
      expect(run.summary.totals.warnings).toBe(1);
      // The console: the check's line as it ended, once, and one WARNING line in the summary's own words.
      const lines = stripVTControlCharacters(run.output).split("\n");
      expect(lines.filter((l) => l.includes("updateFile update_persisted") && !l.startsWith("SENT "))).toEqual([
        expect.stringMatching(/^ {2}✓ updateFile update_persisted \(\d+ requests\)$/),
        `WARNING ${warning}`,
      ]);
      expect(lines.filter((l) => l.startsWith("WARNING "))).toEqual([`WARNING ${warning}`]);
      expect(lines.filter((l) => l.includes("the same labels"))).toEqual([`WARNING ${warning}`]);
      expect(run.exitCode).toBe(0);
      expect(after).toEqual(before);
    },
  );
});
