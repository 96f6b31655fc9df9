// covers: contract-tests/checks/, contract-tests/run/target.ts, contract-tests/http/target.ts, contract-tests/run/spec.ts, contract-tests/run/run-checks.ts, contract-tests/http/exchange.ts, contract-tests/run/evidence.ts, contract-tests/inputs/keys.ts, contract-tests/run/deadline.ts, contract-tests/run/example-file-id.ts, contract-tests/engine/check-server.ts, contract-tests/run-suite.ts, sandbox/testing/faults.ts, sandbox/testing/variation.ts, sandbox/fault-layer.ts, contract-tests/inputs/label-classes.ts, contract-tests/http/request-context.ts, contract-tests/run/check-selection.ts, contract-tests/inputs/near-ids.ts, contract-tests/inputs/url-forms.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripVTControlCharacters } from "node:util";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { catalogue } from "../../contract-tests/checks/catalogue.ts";
import { legitimateVariants } from "../../sandbox/testing/index.ts";
import { fromRoot } from "../../scripts/lib/paths.ts";
import type { FaultName } from "../../sandbox/testing/index.ts";
import {
  failedChecks,
  FILE_ID,
  liveOptions,
  runContractSuite,
  SANDBOX_FIXTURES as fixturesFile,
  SEED,
  suiteAgainstSandbox,
  type ContractRun,
} from "../support/contract-suite.ts";
import type { SuiteOptions } from "../../contract-tests/index.ts";
import { call, FILES, sandbox, SANDBOX_KEY } from "../support/sandbox.ts";
import { expectedFailures, faultExpectations, type FaultExpectation } from "../fixtures/fault-expectations.ts";

/** Runs the suite, write checks on, against a sandbox of its own with a fault or variant. */
const suiteAgainst = (options: { fault?: string; variant?: string }, extra: SuiteOptions = {}) =>
  suiteAgainstSandbox(options, { writeChecks: true, ...extra });

// Tests that make the very same run (same sandbox, same options: the run is deterministic by its seed) share it.
const runs = new Map<string, ReturnType<typeof suiteAgainst>>();
const sharedRun = (options: { fault?: string; variant?: string }, extra: SuiteOptions = {}) => {
  const key = JSON.stringify([options, extra]);
  if (!runs.has(key)) runs.set(key, suiteAgainst(options, extra));
  return runs.get(key)!;
};

const warnedChecks = (run: ContractRun) => [
  ...new Set(run.summary.checks.filter((c) => c.warnings.length > 0).map((c) => c.check)),
];

describe("the live suite against the sandbox", { timeout: 120_000 }, () => {
  let sb: Awaited<ReturnType<typeof sandbox>>;
  // The step summary goes where GitHub would put it: a file in a folder that exists (a fresh clone has no reports/).
  let stepSummary: string;
  beforeAll(async () => {
    sb = await sandbox({ fixturesFile });
    stepSummary = path.join(await mkdtemp(path.join(os.tmpdir(), "file-library-step-summary-")), "step-summary.md");
  });
  afterAll(async () => {
    await sb.close();
    await rm(path.dirname(stepSummary), { recursive: true, force: true });
  });

  // One read-only run serves the two tests of it below: a step summary file changes nothing the run sends.
  let readOnly: Promise<{ run: ContractRun; before: unknown; after: unknown }> | undefined;
  const readOnlyRun = () =>
    (readOnly ??= (async () => {
      const stored = async () => (await call(sb.baseUrl, `${FILES}/${FILE_ID}`)).json();
      const before = await stored();
      const run = await runContractSuite(liveOptions(sb.baseUrl, { stepSummaryFile: stepSummary }));
      return { run, before, after: await stored() };
    })());

  it("passes every check of the catalogue with write checks on, and puts the file back as it was", async () => {
    // The run a correct sandbox gets in catalogue order, which the test of shuffled orders compares with.
    const run = await sharedRun({});
    expect(run.exitCode, run.output).toBe(0);
    expect(run.summary.totals.failed).toBe(0);
    expect(run.summary.totals.skipped).toBe(0);
    expect(new Set(run.summary.checks.map((c) => c.check))).toEqual(new Set(catalogue.map((c) => c.name)));
    expect(run.fileBefore).toMatchObject({ id: FILE_ID });
    expect(run.fileAfter).toEqual(run.fileBefore);
    const junit = await readFile(path.join(run.reportDir, "contract-junit.xml"), "utf8");
    expect(junit).toContain('failures="0"');
    expect(junit).not.toContain(SANDBOX_KEY);
  });

  it("a default (read-only) run sends at most 100 requests, changes nothing, and skips only the writes", async () => {
    const { run, before, after } = await readOnlyRun();
    expect(run.exitCode, run.output).toBe(0);
    expect(run.summary.totals.requests).toBeGreaterThan(20);
    expect(run.summary.totals.requests).toBeLessThanOrEqual(100);
    const skipped = run.summary.checks.filter((c) => c.state === "skipped");
    expect(skipped.map((c) => `${c.operation} ${c.check}`).sort()).toEqual([
      "updateFile file_left_as_found",
      "updateFile omitted_fields_kept",
      "updateFile positive_data_acceptance",
      "updateFile update_changes_only_its_fields",
      "updateFile update_persisted",
    ]);
    expect(skipped.every((c) => c.note?.includes("FILE_LIBRARY_WRITE_CHECKS=1"))).toBe(true);
    expect(after).toEqual(before);
  });

  it("writes the coverage of documented statuses as JSON and Markdown, and appends it to GITHUB_STEP_SUMMARY", async () => {
    const { run } = await readOnlyRun();
    const coverage = JSON.parse(await readFile(path.join(run.reportDir, "contract-coverage.json"), "utf8"));
    const getFile = coverage.coverage.operations.find((o: { operation: string }) => o.operation === "getFile");
    expect(getFile.documented).toEqual(
      expect.arrayContaining([
        { status: "200", observed: true },
        { status: "422", observed: true },
        { status: "401", observed: true },
        { status: "429", observed: false },
      ]),
    );
    const markdown = await readFile(path.join(run.reportDir, "contract-coverage.md"), "utf8");
    expect(markdown).toContain(
      "| getFile | 200, 401, 422 | 429, 500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511 | none |",
    );
    expect(await readFile(stepSummary, "utf8")).toBe(markdown);
    expect(run.output).toMatch(/getFile +\[x\] 200 {2}\[x\] 401 {2}\[x\] 422 {2}\[ \] 429/);
  });
});

// Faults that show only to particular inputs or bytes. Each is caught by an input its check sends in every run, from a
// fixed list the seed does not draw (the label classes, the URL forms, the key's near misses, the ids near the real
// one), or in bytes every answer carries (a BOM, the offset, a control character): the seed draws only the other inputs
// and, shuffled, the order. So each fault's run below has a seed other than the usual, the three taken in turn, and the
// checks in an order drawn from it: neither the seed nor the order may hide it. (update-empties-the-file runs in
// catalogue order and three shuffled orders under "verdicts do not depend on the order of the checks".)
const faultsOfOneInput: readonly string[] = [
  "label-items-not-strings-accepted",
  "public-url-number-accepted",
  "key-checked-in-part",
  "empty-bearer-passes-on-download",
  "key-compared-ignoring-case",
  "labels-trimmed",
  "labels-normalized-nfc",
  "labels-first-ten",
  "empty-labels-ignored",
  "public-url-ignored",
  "labels-split-at-commas",
  "public-url-cut-at-255",
  "key-prefix-accepted",
  "download-url-control-char",
  "metadata-latin1",
  "metadata-size-repeated",
  "update-empties-the-file",
  // Round five's gaps, one fault each: a BOM, an offset without its colon, an id near the real one, a value
  // rewritten on store, a read on a new connection, a lost update of two at once.
  "metadata-with-bom",
  "created-at-offset-without-colon",
  "file-id-case-insensitive",
  "labels-html-escaped",
  "stale-read-on-new-connections",
  "lost-update-on-concurrent-writes",
];
const SEEDS = [1, 4242, 987654321];

/** The options of a fault's own run: a seed drawn in turn and a shuffled order for a fault of one input; a limit for max_response_time. */
function faultRunOptions(fault: string): SuiteOptions {
  const i = faultsOfOneInput.indexOf(fault);
  const order = i >= 0 && fault !== "update-empties-the-file" ? { seed: SEEDS[i % SEEDS.length]!, shuffle: true } : {};
  // max_response_time only warns: it is shown by a limit below the fault's delay.
  const limit = faultExpectations[fault as FaultName]?.caughtBy === "max_response_time" ? { maxResponseMs: 60 } : {};
  return { ...order, ...limit };
}

describe.concurrent("the live suite catches every sandbox fault, in exactly the checks it breaks", {
  timeout: 180_000,
}, () => {
  const cases = Object.entries(faultExpectations).map(
    ([name, expectation]) => [name, expectation.caughtBy, expectation] as const,
  );
  it.each(cases)("%s: caught by %s", async (name, caughtBy, expectation) => {
    const options = faultRunOptions(name);
    const run = await sharedRun({ fault: name }, options);
    expect(run.output).not.toContain(SANDBOX_KEY);
    if (options.shuffle)
      expect(run.output).toContain(
        `seed ${options.seed} (replay with --seed ${options.seed}, checks in an order drawn from it)`,
      );
    expect(failedChecks(run).sort(), run.output).toEqual(expectedFailures(expectation));
    if (caughtBy === "max_response_time") {
      expect(run.exitCode, run.output).toBe(0);
      expect(warnedChecks(run)).toContain("max_response_time");
      return;
    }
    expect(run.exitCode, run.output).toBe(1);
    const line = run.output.split("\n").find((l) => l.startsWith("FAILED") && l.includes(` ${caughtBy}: `));
    expect(line, `a summary line naming ${caughtBy}`).toBeDefined();
  });
});

describe("the faults of one input", () => {
  it("each has a run of its own above, with a seed other than the usual and the checks in an order drawn from it", () => {
    const shuffled = faultsOfOneInput.filter((fault) => faultRunOptions(fault).shuffle);
    expect(faultsOfOneInput.filter((fault) => !(fault in faultExpectations))).toEqual([]);
    expect(SEEDS).not.toContain(SEED);
    expect(new Set(shuffled.map((fault) => faultRunOptions(fault).seed))).toEqual(new Set(SEEDS));
    // All but update-empties-the-file, whose orders have tests of their own below.
    expect(faultsOfOneInput.filter((fault) => !shuffled.includes(fault))).toEqual(["update-empties-the-file"]);
  });
});

describe.concurrent("the key's near misses: nowhere in the output (their curl commands: test/suite/curl-reproduce.test.ts)", {
  timeout: 120_000,
}, () => {
  it("the near-miss keys appear in no output and no report", async () => {
    const swapCase = SANDBOX_KEY.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
    const nearMisses = [
      `${SANDBOX_KEY.slice(0, -1)}${SANDBOX_KEY.endsWith("x") ? "y" : "x"}`,
      `${SANDBOX_KEY}x`,
      swapCase,
      SANDBOX_KEY.slice(0, -1),
      SANDBOX_KEY.slice(0, Math.ceil(SANDBOX_KEY.length / 2)),
    ];
    const run = await sharedRun({ fault: "key-checked-in-part" }, faultRunOptions("key-checked-in-part"));
    expect(failedChecks(run)).toEqual(["auth_required"]);
    const reports = await Promise.all(
      (await readdir(run.reportDir)).map((f) => readFile(path.join(run.reportDir, f), "utf8")),
    );
    for (const secret of [SANDBOX_KEY, ...nearMisses]) {
      expect(run.output).not.toContain(secret);
      for (const report of reports) expect(report).not.toContain(secret);
    }
  });
});

describe("every check has a fault that only it catches", () => {
  it.each(catalogue.map((c) => [c.name]))("%s", (check) => {
    const only = Object.entries(faultExpectations).filter(
      ([, expectation]) => expectation.caughtBy === check && !(expectation as FaultExpectation).alsoCaughtBy?.length,
    );
    expect(
      only.map(([name]) => name),
      `faults caught by ${check} alone`,
    ).not.toEqual([]);
  });
});

// Variants whose run with write checks another file makes, with every assertion here and more: not run twice.
const variantsRunElsewhere: Record<string, string> = {
  "rate-limited": "test/suite/contract-rate-limits.test.ts",
  "drops-kept-alive-connections": "test/suite/contract-connections.test.ts",
  "closes-idle-connections-at-once": "test/suite/contract-connections.test.ts",
};

// Variants that keep the contract in a way the suite warns of (docs/decisions.md, D05 and D06);
// every other variant passes without a warning.
const variantsWarned: Record<string, string[]> = {
  "labels-deduplicated": ["update_persisted"],
  "labels-sorted": ["update_persisted"],
  "nulls-clear-the-field": ["omitted_fields_kept"],
  // A problem document's media type is not the one the spec documents (docs/decisions.md, D14).
  "errors-as-problem-details": ["content_type_conformance"],
};

describe.concurrent("no false alarms: the suite passes sandbox variants that keep the contract", {
  timeout: 120_000,
}, () => {
  it.each(Object.keys(legitimateVariants).filter((variant) => !(variant in variantsRunElsewhere)))(
    "%s",
    async (variant) => {
      const run = await suiteAgainst({ variant });
      expect(run.exitCode, run.output).toBe(0);
      expect(run.summary.totals.failed).toBe(0);
      expect(warnedChecks(run).sort(), run.output).toEqual(variantsWarned[variant] ?? []);
    },
  );

  // Exit 0 is the run's own verdict that no check failed.
  it.each(Object.entries(variantsRunElsewhere))(
    "%s: run with write checks, exit 0 asserted, in %s",
    async (variant, file) => {
      const source = await readFile(fromRoot(file), "utf8");
      // The call with write checks on, however it is laid out and whatever else its options add (a virtual clock).
      const call = source.search(
        new RegExp(`suiteAgainstSandbox\\(\\s*\\{ variant: "${variant}" \\},\\s*\\{ writeChecks: true[,} ]`),
      );
      expect(call, `${file} runs ${variant} with write checks`).toBeGreaterThan(-1);
      const test = source.slice(call, source.indexOf("\n  });", call));
      expect(test).toMatch(/expect\(run\.exitCode, [^)]*\)\.toBe\(0\)/);
    },
  );
});

// The checks in their usual order, then in orders drawn from three seeds: a fault that breaks the file on every update
// fails the same checks in each, and so does a correct server (none).
describe.concurrent("verdicts do not depend on the order of the checks", { timeout: 120_000 }, () => {
  const orders = [{ shuffle: false, seed: SEED }, ...[7, 1234, 99_991].map((seed) => ({ shuffle: true, seed }))];
  it.each(
    orders.map((order) => [order.shuffle ? `shuffled with seed ${order.seed}` : "in catalogue order", order] as const),
  )("update-empties-the-file, %s", async (_name, order) => {
    // In catalogue order with the usual seed, it is the run of the fault's own test above.
    const run = await sharedRun({ fault: "update-empties-the-file" }, order.shuffle ? order : {});
    expect(failedChecks(run).sort(), run.output).toEqual(["update_changes_only_its_fields"]);
    expect(run.exitCode).toBe(1);
    if (order.shuffle)
      expect(run.output).toContain(
        `seed ${order.seed} (replay with --seed ${order.seed}, checks in an order drawn from it)`,
      );
  });

  it("a shuffled run really changes the order, and --seed replays it", async () => {
    // The progress lines, one per check as it ends: "  ✓ getFile auth_required (12 requests)".
    const ordered = (run: ContractRun) =>
      [...stripVTControlCharacters(run.output).matchAll(/^ {2}[✓✗!-] (\w+ \w+)/gmu)].map((m) => m[1]).join(",");
    // The order comes from the seed alone, whatever the server answers: seed 7's run of the fault above, then a
    // correct server's with the same seed.
    const first = await sharedRun({ fault: "update-empties-the-file" }, { shuffle: true, seed: 7 });
    const again = await suiteAgainst({}, { shuffle: true, seed: 7 });
    const usual = await sharedRun({});
    expect(ordered(first)).not.toBe("");
    expect(ordered(again)).toBe(ordered(first));
    expect(ordered(first)).not.toBe(ordered(usual));
    for (const run of [again, usual]) expect(run.exitCode, run.output).toBe(0);
  });
});

describe("a failure can be reproduced (with its curl command: test/suite/curl-reproduce.test.ts)", {
  timeout: 120_000,
}, () => {
  it("with its seed: a replay finds the same shrunk input", async () => {
    const first = await sharedRun({ fault: "non-ascii-labels-refused" });
    const second = await suiteAgainst({ fault: "non-ascii-labels-refused" });
    const problem = (run: ContractRun) =>
      run.summary.checks.find((c) => c.check === "positive_data_acceptance" && c.state === "failed")?.failures[0]
        ?.problem;
    expect(problem(first)).toMatch(new RegExp(`input after shrinking: .*; seed ${SEED}, replay with --seed ${SEED}`));
    expect(problem(second)).toBe(problem(first));
    expect(first.output).toContain(`replay with --seed ${SEED}`);
  });
});
