import type { CheckOutcome, ContractSummary } from "./shapes.ts";
import { truncate } from "../../src/excerpt.ts";
import { describeAttempt } from "../http/no-answer.ts";

// A path holds the file id, which the suite makes up to 1000 characters long.
const SHOWN_PATH = 120;
const RETRIED_SHOWN = 10;

/** The reports a run wrote, for its closing lines: the folder, the files, and GitHub's step summary when appended to. */
export interface WrittenReports {
  reportDir: string;
  files: readonly string[];
  stepSummaryFile?: string | undefined;
}

/** What the run concluded, in words: the same in the text summary and the Markdown report. */
export function verdictOf(summary: ContractSummary): string {
  if (summary.totals.failed > 0) return "FAILED";
  if (summary.stopped) return "could not finish";
  return "passed";
}

/** The one closing total. */
export function totalsLine({ totals }: ContractSummary): string {
  return `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped${totals.notRun > 0 ? `, ${totals.notRun} not run` : ""}`;
}

/**
 * How often a check failed on its operation, when more than once: its first failure stands for them all (the JSON
 * report lists each). Empty for one failure.
 */
export function repeatedNote(c: CheckOutcome): string {
  const count = c.failures.length;
  if (count <= 1) return "";
  const distinct = new Set(c.failures.map((f) => f.problem)).size;
  return ` [${count} failures${distinct > 1 ? `, ${distinct} different` : ", the same problem"}; the first shown; contract-summary.json lists each]`;
}

/** Each failing check once per operation, with its first failure's evidence and curl command, in the order of the catalogue. */
function failureLines(checks: readonly CheckOutcome[]): string[] {
  const lines: string[] = [];
  for (const c of checks.filter((x) => x.state === "failed")) {
    const f = c.failures[0];
    if (!f) continue;
    const e = f.evidence;
    const evidence = e
      ? ` | ${e.method} ${truncate(e.path, SHOWN_PATH)} -> ${e.status} ${e.contentType ?? "(no content type)"}, body: ${e.bodyExcerpt || "<empty>"}`
      : "";
    lines.push(`FAILED  ${c.operation} ${c.check}: ${f.problem}${evidence}${repeatedNote(c)}`);
    const curl = e?.curl ?? f.noAnswer?.curl;
    if (curl) lines.push(`        reproduce: ${curl}`);
  }
  return lines;
}

/**
 * The readable summary: the diagnosis of the metadata's shape first, when there is one; each failing check once per
 * operation (its first failure's evidence and a curl, and how many more), the checks that did not run, retried requests,
 * warnings, what was sent, the status coverage, then one total and the reports written.
 */
export function formatSummary(summary: ContractSummary, written?: WrittenReports): string {
  const { target, checks } = summary;
  const lines = [
    `\nContract summary (${target.mode}${target.baseUrl ? ` ${target.baseUrl}` : ""}${summary.seed === undefined ? "" : `, seed ${summary.seed}`}): ${summary.totals.requests} requests`,
  ];
  // First: it explains the failures that follow.
  if (summary.diagnosis) lines.push(`DIAGNOSIS ${summary.diagnosis}`);
  lines.push(...failureLines(checks));
  for (const c of checks.filter((x) => x.state === "not run"))
    lines.push(`NOT RUN ${c.operation} ${c.check}: ${(c.note ?? "").replace(/^not run: /, "")}`);
  for (const e of summary.retried.slice(0, RETRIED_SHOWN)) {
    lines.push(
      `RETRIED ${e.operationId} ${e.method} ${truncate(e.path, SHOWN_PATH)}: ${e.failedAttempts!.map(describeAttempt).join("; ")}; attempt ${e.failedAttempts!.length + 1} got HTTP ${e.status}`,
    );
  }
  if (summary.retried.length > RETRIED_SHOWN)
    lines.push(`RETRIED ... and ${summary.retried.length - RETRIED_SHOWN} more (contract-summary.json lists them all)`);
  for (const c of checks) for (const w of c.warnings) lines.push(`WARNING ${w}`);
  for (const c of checks.filter((x) => x.inputs?.length))
    lines.push(`SENT    ${c.operation} ${c.check}: ${c.inputs!.map((i) => `${i.count} ${i.kind}`).join(", ")}`);
  if (summary.stopped) lines.push(`STOPPED ${summary.stopped.reason}`);
  if (summary.coverage.operations.length > 0) {
    lines.push("", "Statuses the spec documents, seen [x] or not [ ]:");
    for (const op of summary.coverage.operations) {
      const marks = op.documented.map((d) => `[${d.observed ? "x" : " "}] ${d.status}`).join("  ");
      lines.push(
        `  ${op.operation.padEnd(20)} ${marks}${op.undocumented.length > 0 ? `  UNDOCUMENTED: ${op.undocumented.join(", ")}` : ""}`,
      );
    }
  }
  if (summary.seed !== undefined)
    lines.push(`Generated inputs used seed ${summary.seed}: replay with --seed ${summary.seed}.`);
  lines.push(
    "",
    `contract: ${totalsLine(summary)}${summary.stopped && summary.totals.failed === 0 ? " (the run could not finish)" : ""}`,
  );
  if (written) {
    const appended = written.stepSummaryFile ? `; the Markdown appended to ${written.stepSummaryFile}` : "";
    lines.push(`reports in ${written.reportDir}: ${written.files.join(", ")}${appended}`);
  }
  return `${lines.join("\n")}\n`;
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const fence = (text: string) => `\`\`\`sh\n${text}\n\`\`\``;

/**
 * The run as Markdown (reports/contract-coverage.md, and GitHub's step summary): the verdict, the diagnosis of the
 * metadata's shape, then each failing check once per operation with its first failure's evidence and curl command, the checks that did not run, the statuses each operation documents (seen or not),
 * and every check at the end, folded.
 */
export function coverageMarkdown(summary: ContractSummary): string {
  const out = [
    `## File Library contract: ${verdictOf(summary)} (${totalsLine(summary)})`,
    "",
    `Target: ${summary.target.mode}${summary.target.baseUrl ? ` ${summary.target.baseUrl}` : ""}; ${summary.totals.requests} requests${summary.seed === undefined ? "" : `; seed ${summary.seed} (replay with \`--seed ${summary.seed}\`)`}.`,
  ];
  if (summary.diagnosis) out.push("", `**Diagnosis:** ${summary.diagnosis}`);
  if (summary.stopped) out.push("", `**Stopped:** ${summary.stopped.reason}`);
  const failed = summary.checks.filter((c) => c.state === "failed" && c.failures.length > 0);
  if (failed.length > 0) {
    out.push("", "### Failures", "");
    for (const c of failed) {
      const f = c.failures[0]!;
      const e = f.evidence;
      out.push(`- **${c.operation} \`${c.check}\`**: ${f.problem}${repeatedNote(c)}`);
      if (e)
        out.push(
          `  \`${e.method} ${truncate(e.path, SHOWN_PATH)}\` → ${e.status} ${e.contentType ?? "(no content type)"}, body: \`${e.bodyExcerpt || "<empty>"}\``,
        );
      const curl = e?.curl ?? f.noAnswer?.curl;
      if (curl) out.push("", fence(curl).replace(/^/gm, "  "), "");
    }
  }
  const notRun = summary.checks.filter((c) => c.state === "not run");
  if (notRun.length > 0)
    out.push(
      "",
      "### Did not run",
      "",
      ...notRun.map((c) => `- ${c.operation} \`${c.check}\`: ${(c.note ?? "").replace(/^not run: /, "")}`),
    );
  const warned = summary.checks.filter((c) => c.warnings.length > 0);
  if (warned.length > 0) out.push("", "### Warnings", "", ...warned.flatMap((c) => c.warnings.map((w) => `- ${w}`)));
  if (summary.coverage.operations.length > 0) {
    out.push(
      "",
      "### Statuses the spec documents",
      "",
      "| operation | seen | not seen | undocumented, seen |",
      "|---|---|---|---|",
    );
    for (const op of summary.coverage.operations) {
      const seen = op.documented.filter((d) => d.observed).map((d) => d.status);
      const unseen = op.documented.filter((d) => !d.observed).map((d) => d.status);
      out.push(
        `| ${op.operation} | ${seen.join(", ") || "none"} | ${unseen.join(", ") || "none"} | ${op.undocumented.join(", ") || "none"} |`,
      );
    }
  }
  if (summary.checks.length > 0) {
    out.push(
      "",
      `<details><summary>Every check (${summary.checks.length})</summary>`,
      "",
      "| check | operation | result | note |",
      "|---|---|---|---|",
    );
    for (const c of summary.checks) {
      const note = c.state === "failed" ? (c.failures[0]?.problem ?? "") : (c.note ?? c.warnings[0] ?? "");
      out.push(
        `| ${c.check} | ${c.operation} | ${c.state}${c.warnings.length > 0 ? " (warning)" : ""} | ${cell(note)} |`,
      );
    }
    out.push("", "</details>");
  }
  return `${out.join("\n")}\n`;
}
