import { junitXml } from "../report/junit.ts";
import type { CheckOutcome, ContractSummary } from "../report/shapes.ts";
import type { PactFinding } from "./judge-pact.ts";
import type { ReadPact } from "./read-pact.ts";
import { writeReportFiles } from "../report/write-whole.ts";

/** The format and version of pact-summary.json. */
export const PACT_SUMMARY_FORMAT = "file-library-pact-summary/1";

/** Findings listed in the reports; past these they are counted. */
export const FINDINGS_KEPT = 1000;

/** What pact-summary.json holds: the pact judged, its verdict, and every finding (up to FINDINGS_KEPT). */
export interface PactSummary {
  format: typeof PACT_SUMMARY_FORMAT;
  pact: string;
  consumer: string;
  provider: string;
  specification: string;
  verdict: "passed" | "failed";
  interactions: Array<{
    index: number;
    description: string;
    states: string[];
    method: string;
    path: string;
    status: number;
    fits: boolean;
  }>;
  /** Interactions that are not HTTP (V4 messages): not judged. */
  notHttp: string[];
  findings: PactFinding[];
  findingsLeftOut: number;
}

/** The summary of one pact's judgement. */
export function pactSummary(file: string, pact: ReadPact, findings: PactFinding[]): PactSummary {
  const broken = new Set(findings.map((f) => f.index));
  return {
    format: PACT_SUMMARY_FORMAT,
    pact: file,
    consumer: pact.consumer,
    provider: pact.provider,
    specification: pact.specification,
    verdict: findings.length > 0 ? "failed" : "passed",
    interactions: pact.interactions.map((i) => ({
      index: i.index,
      description: i.description,
      states: i.states,
      method: i.request.method,
      path: i.request.path,
      status: i.response.status,
      fits: !broken.has(i.index),
    })),
    notHttp: pact.notHttp,
    findings: findings.slice(0, FINDINGS_KEPT),
    findingsLeftOut: Math.max(0, findings.length - FINDINGS_KEPT),
  };
}

/** One finding in one line: the interaction, the side, the member and the check. */
export const findingLine = (f: PactFinding): string =>
  `interaction ${f.index + 1} "${f.interaction}", ${f.side} ${f.member}: ${f.check}: ${f.problem}`;

/** Where the JUnit counts the findings past FINDINGS_KEPT, in a case of its own (as the proxy's does). */
const LEFT_OUT = { operation: "left out", check: "findings counted, not listed" };

/**
 * The summary as the suite's report shape, for the suite's JUnit writer: one test case per interaction, and one that
 * counts the findings past FINDINGS_KEPT.
 */
function asContractSummary(summary: PactSummary): ContractSummary {
  const outcome = (operation: string, check: string, failures: Array<{ problem: string }>): CheckOutcome => ({
    operation,
    check,
    state: failures.length > 0 ? "failed" : "passed",
    warnings: [],
    requests: 0,
    durationMs: 0,
    failures,
  });
  const checks = summary.interactions.map((i) =>
    outcome(`${i.method} ${i.path}`, `${i.description} fits the spec`, failuresOf(summary, i)),
  );
  if (summary.findingsLeftOut > 0)
    checks.push(
      outcome(LEFT_OUT.operation, LEFT_OUT.check, [
        {
          problem: `${summary.findingsLeftOut} further finding(s) past the ${FINDINGS_KEPT} the reports list: counted, not listed`,
        },
      ]),
    );
  const count = (state: CheckOutcome["state"]) => checks.filter((c) => c.state === state).length;
  return {
    target: { mode: "live", baseUrl: undefined },
    seed: undefined,
    totals: {
      passed: count("passed"),
      failed: count("failed"),
      skipped: 0,
      notRun: 0,
      warnings: 0,
      requests: 0,
      connectionRetries: 0,
    },
    checks,
    coverage: { operations: [] },
    retried: [],
  };
}

/**
 * An interaction's listed findings as JUnit failures. One whose findings all fall past FINDINGS_KEPT gets one that
 * says so: a failed case without a failure element is a pass to most JUnit readers.
 */
function failuresOf(summary: PactSummary, i: PactSummary["interactions"][number]): Array<{ problem: string }> {
  const listed = summary.findings
    .filter((f) => f.index === i.index)
    .map((f) => ({ problem: `${f.side} ${f.member}: ${f.check}: ${f.problem}` }));
  if (i.fits || listed.length > 0) return listed;
  return [
    {
      problem: `its findings fall past the ${FINDINGS_KEPT} the reports list: counted in "${LEFT_OUT.operation}", not listed`,
    },
  ];
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** pact-summary.md: the verdict, each interaction and whether it fits, then the findings. */
export function pactMarkdown(summary: PactSummary): string {
  const out = [
    `## File Library pact check: ${summary.verdict}`,
    "",
    `Pact ${cell(summary.pact)} (specification ${summary.specification}) between ${cell(summary.consumer)} and ${cell(summary.provider)}: ${summary.interactions.length} HTTP interaction(s) judged against the spec.`,
    ...(summary.notHttp.length > 0 ? ["", `Not judged (not HTTP): ${cell(summary.notHttp.join(", "))}`] : []),
    "",
    "| # | interaction | request | status | fits the spec |",
    "|---|---|---|---|---|",
    ...summary.interactions.map(
      (i) =>
        `| ${i.index + 1} | ${cell(i.description)} | ${cell(`${i.method} ${i.path}`)} | ${i.status} | ${i.fits ? "yes" : "no"} |`,
    ),
    "",
    "| # | side | member | check | problem |",
    "|---|---|---|---|---|",
    ...summary.findings.map(
      (f) => `| ${f.index + 1} | ${f.side} | ${cell(f.member)} | ${f.check} | ${cell(f.problem)} |`,
    ),
  ];
  if (summary.findings.length === 0) out.push("| | | | none | |");
  if (summary.findingsLeftOut > 0) out.push("", `${summary.findingsLeftOut} further finding(s) counted, not listed.`);
  return `${out.join("\n")}\n`;
}

/** Writes pact-junit.xml (the suite's JUnit writer), pact-summary.json and pact-summary.md into `dir`. */
export async function writePactReports(dir: string, summary: PactSummary): Promise<string[]> {
  return writeReportFiles(dir, {
    "pact-junit.xml": junitXml(asContractSummary(summary), "file-library-contract pact"),
    "pact-summary.json": `${JSON.stringify(summary, null, 2)}\n`,
    "pact-summary.md": pactMarkdown(summary),
  });
}
