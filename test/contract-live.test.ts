import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { faults } from "../sandbox/faults.ts";
import { fromRoot } from "../scripts/lib/paths.ts";
import { failedChecks, runContractSuite } from "../scripts/lib/contract-run.ts";
import { call, FILES, sandbox, SANDBOX_KEY } from "./support/sandbox.ts";

const FILE_ID = "doc-1";
const fixturesFile = fromRoot("test/fixtures/sandbox-files.json");
const liveEnv = (baseUrl: string, extra: Record<string, string> = {}) => ({
  FILE_LIBRARY_BASE_URL: baseUrl,
  FILE_LIBRARY_API_KEY: SANDBOX_KEY,
  FILE_LIBRARY_FILE_ID: FILE_ID,
  ...extra,
});

describe("the live suite against the sandbox", { timeout: 120_000 }, () => {
  let sb: Awaited<ReturnType<typeof sandbox>>;
  beforeAll(async () => {
    sb = await sandbox({ fixturesFile });
  });
  afterAll(() => sb.close());

  it("passes with write checks on, skips nothing, and puts the file back as it was", async () => {
    const before = await (await call(sb.baseUrl, `${FILES}/${FILE_ID}`)).json();
    const run = await runContractSuite(liveEnv(sb.baseUrl, { FILE_LIBRARY_WRITE_CHECKS: "1" }));
    expect(run.code, run.output).toBe(0);
    expect(run.summary.totals.failed).toBe(0);
    expect(run.summary.totals.skipped).toBe(0);
    expect(run.output).toContain("contract: ");
    expect(await (await call(sb.baseUrl, `${FILES}/${FILE_ID}`)).json()).toEqual(before);
    const junit = await readFile(path.join(run.reportDir, "contract-junit.xml"), "utf8");
    expect(junit).toContain('failures="0"');
    expect(junit).not.toContain(SANDBOX_KEY);
  });

  it("a default (read-only) run sends at most 100 requests, changes nothing, and only skips the write checks", async () => {
    const before = await (await call(sb.baseUrl, `${FILES}/${FILE_ID}`)).json();
    const run = await runContractSuite(liveEnv(sb.baseUrl));
    expect(run.code, run.output).toBe(0);
    expect(run.summary.totals.requests).toBeGreaterThan(10);
    expect(run.summary.totals.requests).toBeLessThanOrEqual(100);
    const skipped = run.summary.checks.filter((c) => c.state === "skipped");
    expect(skipped.map((c) => c.check).sort()).toEqual(["positive_data_acceptance", "update_persisted"]);
    expect(skipped.every((c) => c.note?.includes("FILE_LIBRARY_WRITE_CHECKS=1"))).toBe(true);
    expect(await (await call(sb.baseUrl, `${FILES}/${FILE_ID}`)).json()).toEqual(before);
  });
});

describe.concurrent("the live suite catches every sandbox fault", { timeout: 120_000 }, () => {
  const cases = Object.entries(faults).map(([name, fault]) => [name, fault.caughtBy, fault] as const);
  it.each(cases)("%s: fails, naming %s", async (name, _, fault) => {
    const sb = await sandbox({ fixturesFile, fault: name });
    try {
      const run = await runContractSuite(liveEnv(sb.baseUrl, { FILE_LIBRARY_WRITE_CHECKS: "1" }));
      expect(run.code, run.output).toBe(1);
      expect(failedChecks(run)).toContain(fault.caughtBy);
      const line = run.output.split("\n").find((l) => l.startsWith("FAILED") && l.includes(fault.caughtBy));
      expect(line, `a summary line naming ${fault.caughtBy}`).toMatch(/FAILED {2}\w+ \w+: .+ \| (GET|PUT) \/studio\/v1\/library\/files\/\S+ -> \d{3} /);
      expect(run.output).not.toContain(SANDBOX_KEY);
    } finally {
      await sb.close();
    }
  });

  it("has at least 12 faults, each a different way to break the contract", () => {
    expect(Object.keys(faults).length).toBeGreaterThanOrEqual(12);
    expect(new Set(Object.values(faults).map((f) => f.description)).size).toBe(Object.keys(faults).length);
  });
});
