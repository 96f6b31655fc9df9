// covers: contract-tests/report/summary-format.ts, contract-tests/report/junit.ts, contract-tests/run/progress-lines.ts, contract-tests/run/paint.ts
// What people read of a run, from real runs: one total, each failure once, no escape codes where no terminal reads
// them, the reports named at the end, and a Markdown report that opens with the failures.
import { describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { environmentWithoutSettings, suiteAgainstSandbox } from "../support/contract-suite.ts";

const ESCAPE = "\u001b[";
const REPORTS = ["contract-junit.xml", "contract-summary.json", "contract-coverage.json", "contract-coverage.md"];

/** A read-only run against a sandbox whose metadata names another id: metadata_of_requested_file fails, once. */
const failingRun = (env: Record<string, string | undefined> = {}) =>
  suiteAgainstSandbox(
    { fault: "metadata-wrong-id" },
    { env: { ...environmentWithoutSettings(), FORCE_COLOR: undefined, NO_COLOR: undefined, ...env } },
  );

describe.concurrent("the suite's output, from a real failing run", { timeout: 90_000 }, () => {
  it("prints one total, each failure once with its curl, no stack frame or file name, and names every report it wrote", async () => {
    const run = await failingRun();
    expect(run.exitCode).toBe(1);
    const lines = run.output.trimEnd().split("\n");
    // One closing total: vitest's own ("Tests 8 passed | 8 skipped (16)") is gone.
    expect(lines.filter((line) => /\b\d+ passed\b/.test(line))).toEqual([
      `contract: ${run.summary.totals.passed} passed, 1 failed, 5 skipped`,
    ]);
    const [failure] = run.summary.checks.find((c) => c.check === "metadata_of_requested_file")!.failures;
    expect(run.output.split(failure!.problem)).toHaveLength(2);
    expect(lines.filter((line) => line.startsWith("FAILED "))).toHaveLength(1);
    expect(lines[lines.findIndex((line) => line.startsWith("FAILED ")) + 1]).toBe(
      `        reproduce: ${failure!.evidence!.curl}`,
    );
    for (const noise of ["❯", "chunk-", ".contract.test.", "⎯", "Test Files"]) expect(run.output).not.toContain(noise);
    // The closing lines: the total, then every report written, each one there.
    expect(lines.slice(-2)).toEqual([
      `contract: ${run.summary.totals.passed} passed, 1 failed, 5 skipped`,
      `reports in ${run.reportDir}: ${REPORTS.join(", ")}`,
    ]);
    for (const file of REPORTS) expect(existsSync(path.join(run.reportDir, file)), file).toBe(true);
    // A line per check as it ended.
    expect(lines).toContain("  ✗ getFile metadata_of_requested_file (1 request)");
  });

  it("writes no escape codes into a pipe, nor with NO_COLOR; FORCE_COLOR turns them on", async () => {
    const [plain, noColor, forced] = await Promise.all([
      failingRun(),
      failingRun({ NO_COLOR: "1" }),
      failingRun({ FORCE_COLOR: "1" }),
    ]);
    expect(plain.output).not.toContain(ESCAPE);
    expect(noColor.output).not.toContain(ESCAPE);
    expect(forced.output).toContain(`${ESCAPE}31m✗${ESCAPE}39m getFile metadata_of_requested_file`);
  });

  it("opens the Markdown report with the failures and their curl, then the statuses each operation documents", async () => {
    const run = await failingRun();
    const markdown = await readFile(path.join(run.reportDir, "contract-coverage.md"), "utf8");
    const lines = markdown.split("\n");
    expect(lines[0]).toBe(
      `## File Library contract: FAILED (${run.summary.totals.passed} passed, 1 failed, 5 skipped)`,
    );
    const failures = lines.indexOf("### Failures");
    const statuses = lines.indexOf("### Statuses the spec documents");
    const everyCheck = lines.findIndex((line) => line.startsWith("<details>"));
    expect(failures).toBeGreaterThan(0);
    expect(statuses).toBeGreaterThan(failures);
    expect(everyCheck).toBeGreaterThan(statuses);
    const [failure] = run.summary.checks.find((c) => c.check === "metadata_of_requested_file")!.failures;
    const section = lines.slice(failures, statuses).join("\n");
    expect(section).toContain(`- **getFile \`metadata_of_requested_file\`**: ${failure!.problem}`);
    expect(section).toContain(`  \`\`\`sh\n  ${failure!.evidence!.curl}\n  \`\`\``);
    // Each operation's row lists only the statuses it documents: seen, or not seen.
    for (const op of run.summary.coverage.operations) {
      const row = lines.find((line) => line.startsWith(`| ${op.operation} |`))!;
      const [, seen, notSeen] = row.split(" | ");
      expect([...seen!.split(", "), ...notSeen!.split(", ")].filter((s) => s !== "none").sort()).toEqual(
        op.documented.map((d) => d.status).sort(),
      );
    }
    expect(markdown).not.toContain("n/a");
  });

  it("writes JUnit with the failure, its message and its curl, and each check as a test case of its operation", async () => {
    const run = await failingRun();
    const junit = await readFile(path.join(run.reportDir, "contract-junit.xml"), "utf8");
    expect(junit).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="file-library-contract" tests="\d+" failures="1" errors="0" skipped="5" /,
    );
    expect(junit).toContain('<testcase classname="getFile" name="metadata_of_requested_file"');
    expect(junit.match(/<testcase /g)).toHaveLength(run.summary.checks.length);
    expect(junit).toContain("reproduce: curl -i -X GET");
  });
});
