import { describe, expect, it } from "vitest";
import type { CheckOutcome, ContractSummary } from "../../contract-tests/report/shapes.ts";
import { coverageMarkdown, formatSummary, repeatedNote } from "../../contract-tests/report/summary-format.ts";

const evidence = (path: string) => ({
  operationId: "getFile",
  method: "GET",
  path,
  url: `http://s.test${path}`,
  status: 200,
  contentType: "application/json",
  bodyExcerpt: "{}",
  curl: `curl -i 'http://s.test${path}'`,
});
const outcome = (check: string, problems: string[]): CheckOutcome => ({
  operation: "getFile",
  check,
  state: "failed",
  warnings: [],
  requests: 0,
  durationMs: 0,
  failures: problems.map((problem, i) => ({ problem, evidence: evidence(`/f/${i}`) })),
});
const summary = (checks: CheckOutcome[], diagnosis?: string): ContractSummary => ({
  target: { mode: "live", baseUrl: "http://s.test" },
  ...(diagnosis ? { diagnosis } : {}),
  seed: 1,
  totals: { passed: 0, failed: checks.length, skipped: 0, notRun: 0, warnings: 0, requests: 7, connectionRetries: 0 },
  checks,
  coverage: { operations: [] },
  retried: [],
});

const schema = outcome("response_schema_conformance", Array(5).fill("body must have required property 'id'"));
const drift = outcome("update_changes_only_its_fields", ["lastUpdated from 1 to 2", "lastUpdated from 1 to 3"]);
const once = outcome("metadata_of_requested_file", ["the metadata's id is undefined"]);

describe("the summary: the diagnosis first, each failing check once per operation", () => {
  it("prints the diagnosis right after the heading, before the failures", () => {
    const lines = formatSummary(summary([once], "this server answers fileId → id")).split("\n");
    expect(lines.slice(1, 3)).toEqual([
      "Contract summary (live http://s.test, seed 1): 7 requests",
      "DIAGNOSIS this server answers fileId → id",
    ]);
    expect(lines[3]).toMatch(/^FAILED {2}getFile metadata_of_requested_file: /);
    expect(formatSummary(summary([once]))).not.toContain("DIAGNOSIS");
  });

  it("prints one FAILED line and one curl for a check that failed five times, with the count, the first failure's evidence", () => {
    const text = formatSummary(summary([schema, drift, once]));
    const failed = text.split("\n").filter((line) => line.startsWith("FAILED"));
    expect(failed).toEqual([
      "FAILED  getFile response_schema_conformance: body must have required property 'id' | GET /f/0 -> 200 application/json, body: {} [5 failures, the same problem; the first shown; contract-summary.json lists each]",
      "FAILED  getFile update_changes_only_its_fields: lastUpdated from 1 to 2 | GET /f/0 -> 200 application/json, body: {} [2 failures, 2 different; the first shown; contract-summary.json lists each]",
      "FAILED  getFile metadata_of_requested_file: the metadata's id is undefined | GET /f/0 -> 200 application/json, body: {}",
    ]);
    expect(text.split("reproduce: ")).toHaveLength(4);
    expect(repeatedNote(once)).toBe("");
  });

  it("does the same in Markdown, the diagnosis before the failures", () => {
    const markdown = coverageMarkdown(summary([schema, once], "this server answers fileId → id"));
    expect(markdown.indexOf("**Diagnosis:** this server answers fileId → id")).toBeLessThan(
      markdown.indexOf("### Failures"),
    );
    expect(markdown.match(/^- \*\*getFile `response_schema_conformance`\*\*/gm)).toHaveLength(1);
    expect(markdown).toContain("[5 failures, the same problem; the first shown; contract-summary.json lists each]");
    expect(markdown.match(/```sh/g)).toHaveLength(2);
  });
});
