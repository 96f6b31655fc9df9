import { junitXml } from "../report/junit.ts";
import type { CheckOutcome, ContractSummary } from "../report/shapes.ts";
import type { ReplayBreak, ReplayResult, ReplayRow } from "./replay.ts";
import { writeReportFiles } from "../report/write-whole.ts";

/** The format and version of replay-summary.json. */
export const SUMMARY_FORMAT = "file-library-replay-summary/1";

/** What replay-summary.json holds: the result, with the recording and the deployment it was replayed against. */
export type ReplaySummary = {
  format: typeof SUMMARY_FORMAT;
  recording: string;
  baseUrl: string;
  verdict: "passed" | "failed" | "could not finish" | "could not start";
} & Omit<ReplayResult, "rows"> & {
    rows: Array<ReplayRow & { stillServed: "yes" | "no" | "not replayed" }>;
  };

/** The check of a file the replay could not put back: reported apart, after the rows. */
const RESTORE = "file_left_as_found";

/** Whether the deployment still serves what the app used of one operation and status, in one word. */
const servedOf = (row: ReplayRow): "yes" | "no" | "not replayed" =>
  row.broke > 0 ? "no" : row.replayed > 0 ? "yes" : "not replayed";

/** The replay's summary, for its reports and its closing line. */
export function replaySummary(recording: string, baseUrl: string, result: ReplayResult): ReplaySummary {
  const verdict = result.stopped?.atStart
    ? "could not start"
    : result.exitCode === 1
      ? "failed"
      : result.stopped
        ? "could not finish"
        : "passed";
  // The diagnosis first after the format's stamp: it says why the breaks below it come.
  return {
    format: SUMMARY_FORMAT,
    ...(result.diagnosis ? { diagnosis: result.diagnosis } : {}),
    recording,
    baseUrl,
    verdict,
    ...result,
    rows: result.rows.map((row) => ({ ...row, stillServed: servedOf(row) })),
  };
}

/**
 * The replay's breaks for stderr at its end: the diagnosis first, when there is one, then each failing check once
 * per operation and side, with its count and its first break's line; nothing when there is neither.
 */
export function replayFindingLines(result: Pick<ReplayResult, "diagnosis" | "failedChecks">): string[] {
  return [
    ...(result.diagnosis ? [`DIAGNOSIS: ${result.diagnosis}`] : []),
    ...result.failedChecks.map(
      (c) =>
        `FAILED (${c.side}) ${c.operation} ${c.check}: ${c.count} break(s), the first at ${c.first.line ? `line ${c.first.line}` : "the end (putting the files back)"}: ${c.first.problem}`,
    ),
  ];
}

/** One operation and status as a check of the suite's reports: failed, not run (the budget), passed or skipped. */
function outcomeOf(row: ReplayRow, breaks: ReplayBreak[]): CheckOutcome {
  const mine = breaks.filter((b) => b.operation === row.operation && b.check !== RESTORE && b.status === row.status);
  const state = row.broke > 0 ? "failed" : row.leftOutBudget > 0 ? "not run" : row.replayed > 0 ? "passed" : "skipped";
  const note =
    state === "not run"
      ? `not run: ${row.leftOutBudget} request(s) past the request budget (--max-requests)`
      : state === "skipped"
        ? row.leftOutReadOnly > 0
          ? "a read-only replay: give --write-checks to replay the app's updates"
          : "the recording kept no body to send"
        : undefined;
  return {
    operation: row.operation,
    check: `HTTP ${row.status} as the app got it`,
    state,
    note,
    warnings: [],
    requests: row.replayed,
    durationMs: 0,
    failures: mine.map(failureOf),
  };
}

const failureOf = (b: ReplayBreak): CheckOutcome["failures"][number] => ({
  problem: `${b.side === "service" ? "by the spec" : "as the app saw it"}, line ${b.line} (${b.method} ${b.target}): ${b.check}: ${b.problem}`,
  evidence: {
    operationId: b.operation,
    method: b.method,
    path: b.target,
    url: b.target,
    status: b.status,
    contentType: null,
    bodyExcerpt: "",
    curl: b.curl,
  },
});

/** The summary as the suite's report shape, for its JUnit writer. */
function asContractSummary(summary: ReplaySummary): ContractSummary {
  const checks = summary.rows.map((row) => outcomeOf(row, summary.breaks));
  const restores = summary.breaks.filter((b) => b.check === RESTORE);
  if (restores.length > 0)
    checks.push({
      operation: "updateFile",
      check: "file_left_as_found",
      state: "failed",
      warnings: [],
      requests: 0,
      durationMs: 0,
      failures: restores.map(failureOf),
    });
  const count = (state: CheckOutcome["state"]) => checks.filter((c) => c.state === state).length;
  return {
    target: { mode: "live", baseUrl: summary.baseUrl },
    seed: undefined,
    totals: {
      passed: count("passed"),
      failed: count("failed"),
      skipped: count("skipped"),
      notRun: count("not run"),
      warnings: 0,
      requests: summary.replayed,
      connectionRetries: 0,
    },
    checks,
    coverage: { operations: [] },
    retried: [],
    stopped: summary.stopped
      ? { reason: summary.stopped.reason, ...(summary.stopped.atStart ? { atStart: true as const } : {}) }
      : undefined,
  };
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/**
 * replay-summary.md: the diagnosis, when there is one; per operation and status, what the app used and whether the
 * deployment still serves it; then each failing check once, with its count and first break.
 */
export function replayMarkdown(summary: ReplaySummary): string {
  const out = [
    `## File Library replay: ${summary.verdict}`,
    "",
    ...(summary.diagnosis ? [`**Diagnosis:** ${cell(summary.diagnosis)}.`, ""] : []),
    `Recording ${cell(summary.recording)} against ${summary.baseUrl}: ${summary.exchanges} exchanges, ${summary.duplicates} duplicates, ${summary.replayed} replayed, ${summary.notFileLibrary} not the File Library's.`,
    ...(summary.stopped ? ["", `**Stopped:** ${cell(summary.stopped.reason)}`] : []),
    ...summary.leftOut.map((line) => `\n- left out: ${cell(line)}`),
    "",
    "| operation | status the app got | exchanges | duplicates | replayed | still served | left out |",
    "|---|---|---|---|---|---|---|",
    ...summary.rows.map(
      (r) =>
        `| ${r.operation} | ${r.status} | ${r.recorded} | ${r.duplicates} | ${r.replayed} | ${r.stillServed} | ${r.leftOutReadOnly + r.leftOutBudget + r.leftOutNoBody} |`,
    ),
    "",
    // Each failing check once, with its count and its first break: not one row per exchange.
    "| side | operation | check | breaks | first: line | request | problem |",
    "|---|---|---|---|---|---|---|",
    ...summary.failedChecks.map(
      ({ side, operation, check, count, first: b }) =>
        `| ${side} | ${operation} | ${check} | ${count} | ${b.line || "after"} | ${cell(`${b.method} ${b.target}`)} | ${cell(b.problem)} |`,
    ),
  ];
  if (summary.failedChecks.length === 0) out.push("| | | none | | | | |");
  return `${out.join("\n")}\n`;
}

/** Writes replay-junit.xml (the suite's JUnit writer), replay-summary.json and replay-summary.md into `dir`. */
export async function writeReplayReports(dir: string, summary: ReplaySummary): Promise<string[]> {
  return writeReportFiles(dir, {
    "replay-junit.xml": junitXml(asContractSummary(summary), "file-library-contract replay"),
    "replay-summary.json": `${JSON.stringify(summary, null, 2)}\n`,
    "replay-summary.md": replayMarkdown(summary),
  });
}
