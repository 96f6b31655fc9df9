import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestCase, TestModule } from "vitest/node";
import type { ExchangeEvidence } from "./evidence.ts";

/** One check of the run, as the summary and the JSON report show it. */
export interface CheckOutcome {
  operation: string;
  check: string;
  test: string;
  state: "passed" | "failed" | "skipped" | "pending";
  note?: string | undefined;
  warnings: string[];
  requests: number;
  durationMs: number;
  failure?: { problem: string; evidence?: ExchangeEvidence | undefined } | undefined;
}

/** The whole run, written to contract-summary.json. */
export interface ContractSummary {
  target: { mode: "mock" | "live"; baseUrl: string | undefined };
  totals: { passed: number; failed: number; skipped: number; warnings: number; requests: number };
  checks: CheckOutcome[];
}

const CHECK_NAME = /^([a-z][a-z0-9_]*)(?: \([a-z]+\))?:/;
const OPERATION_NAME = /^([A-Za-z][A-Za-z0-9]*):/;

/** The check a test belongs to: named at the start of the test, or of the nearest suite around it. */
function namesOf(test: TestCase): { check: string; operation: string } {
  let check: string | undefined = CHECK_NAME.exec(test.name)?.[1];
  let operation = "";
  for (let parent = test.parent; parent.type === "suite"; parent = parent.parent) {
    check ??= CHECK_NAME.exec(parent.name)?.[1];
    operation = OPERATION_NAME.exec(parent.name)?.[1] ?? operation;
  }
  return { check: check ?? "unnamed", operation };
}

/** The first line of what is wrong, without the matcher's headline. */
function problemOf(message: string): string {
  const lines = message.split("\n").map((line) => line.trim()).filter(Boolean);
  const detail = lines.find((line) => line.startsWith("- ")) ?? lines[0] ?? "failed";
  return detail.replace(/^- /, "");
}

/** Prints one line per failed check and per warning, and writes the run as JSON beside the JUnit report. */
export default class SummaryReporter implements Reporter {
  constructor(private readonly reportDir: string) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const checks: CheckOutcome[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        const meta = test.meta();
        const { check, operation } = namesOf(test);
        const exchanges = meta.exchanges ?? [];
        checks.push({
          operation,
          check,
          test: test.fullName,
          state: result.state,
          note: result.state === "skipped" ? result.note : undefined,
          warnings: meta.warnings ?? [],
          requests: exchanges.length,
          durationMs: test.diagnostic()?.duration ?? 0,
          failure:
            result.state === "failed"
              ? { problem: problemOf(result.errors[0]?.message ?? "failed"), evidence: meta.failedExchange ?? exchanges.at(-1) }
              : undefined,
        });
      }
    }
    const count = (state: CheckOutcome["state"]) => checks.filter((c) => c.state === state).length;
    const firstUrl = checks.flatMap((c) => (c.failure?.evidence ? [c.failure.evidence.url] : [])).at(0);
    const summary: ContractSummary = {
      target: {
        mode: process.env.FILE_LIBRARY_BASE_URL ? "live" : "mock",
        baseUrl: process.env.FILE_LIBRARY_BASE_URL ?? (firstUrl ? new URL(firstUrl).origin : undefined),
      },
      totals: {
        passed: count("passed"),
        failed: count("failed"),
        skipped: count("skipped"),
        warnings: checks.reduce((n, c) => n + c.warnings.length, 0),
        requests: checks.reduce((n, c) => n + c.requests, 0),
      },
      checks,
    };
    mkdirSync(this.reportDir, { recursive: true });
    writeFileSync(path.join(this.reportDir, "contract-summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
    process.stdout.write(formatSummary(summary));
  }
}

/** The readable summary: failures with their evidence, then warnings, then the totals line. */
export function formatSummary({ target, totals, checks }: ContractSummary): string {
  const lines = [`\nContract summary (${target.mode}${target.baseUrl ? ` ${target.baseUrl}` : ""}): ${totals.requests} requests`];
  for (const c of checks.filter((c) => c.state === "failed")) {
    const e = c.failure?.evidence;
    const evidence = e ? ` | ${e.method} ${e.path} -> ${e.status} ${e.contentType ?? "(no content type)"}, body: ${e.bodyExcerpt || "<empty>"}` : "";
    lines.push(`FAILED  ${c.operation} ${c.check}: ${c.failure?.problem}${evidence}`);
  }
  for (const c of checks) for (const w of c.warnings) lines.push(`WARNING ${w}`);
  lines.push(`contract: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`, "");
  return lines.join("\n");
}
