import type { ContractSummary } from "./shapes.ts";
import { truncate } from "../../src/excerpt.ts";
import { describeAttempt } from "../http/no-answer.ts";

// A path holds the file id, which the suite makes up to 1000 characters long.
const SHOWN_PATH = 120;

/** The readable summary: failures with evidence and a curl, retried requests, warnings, the status coverage, then the totals line. */
export function formatSummary(summary: ContractSummary): string {
  const { target, totals, checks } = summary;
  const lines = [
    `\nContract summary (${target.mode}${target.baseUrl ? ` ${target.baseUrl}` : ""}${summary.seed === undefined ? "" : `, seed ${summary.seed}`}): ${totals.requests} requests`,
  ];
  for (const c of checks.filter((c) => c.state === "failed")) {
    for (const f of c.failures) {
      const e = f.evidence;
      const evidence = e ? ` | ${e.method} ${e.path} -> ${e.status} ${e.contentType ?? "(no content type)"}, body: ${e.bodyExcerpt || "<empty>"}` : "";
      lines.push(`FAILED  ${c.operation} ${c.check}: ${f.problem}${evidence}`);
      const curl = e?.curl ?? f.noAnswer?.curl;
      if (curl) lines.push(`        reproduce: ${curl}`);
    }
  }
  const RETRIED_SHOWN = 10;
  for (const e of summary.retried.slice(0, RETRIED_SHOWN)) {
    lines.push(`RETRIED ${e.operationId} ${e.method} ${truncate(e.path, SHOWN_PATH)}: ${e.failedAttempts!.map(describeAttempt).join("; ")}; attempt ${e.failedAttempts!.length + 1} got HTTP ${e.status}`);
  }
  if (summary.retried.length > RETRIED_SHOWN) lines.push(`RETRIED ... and ${summary.retried.length - RETRIED_SHOWN} more (contract-summary.json lists them all)`);
  for (const c of checks) for (const w of c.warnings) lines.push(`WARNING ${w}`);
  for (const c of checks.filter((x) => x.inputs?.length)) {
    lines.push(`SENT    ${c.operation} ${c.check}: ${c.inputs!.map((i) => `${i.count} ${i.kind}`).join(", ")}`);
  }
  if (summary.stopped) lines.push(`STOPPED ${summary.stopped.reason}`);
  lines.push("", "Statuses seen (documented ones marked [x] when a request got them):");
  for (const op of summary.coverage.operations) {
    const marks = op.documented.map((d) => `[${d.observed ? "x" : " "}] ${d.status}`).join("  ");
    lines.push(`  ${op.operation.padEnd(20)} ${marks}${op.undocumented.length > 0 ? `  UNDOCUMENTED: ${op.undocumented.join(", ")}` : ""}`);
  }
  if (summary.seed !== undefined) lines.push(`Generated inputs used seed ${summary.seed}: replay with --seed ${summary.seed}.`);
  lines.push(`contract: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped${totals.notRun > 0 ? `, ${totals.notRun} not run` : ""}${summary.stopped ? " (the run could not finish)" : ""}`, "");
  return lines.join("\n");
}

/** The coverage as Markdown, for reports/contract-coverage.md and GitHub's step summary. */
export function coverageMarkdown(summary: ContractSummary): string {
  const statuses = [...new Set(summary.coverage.operations.flatMap((o) => o.documented.map((d) => d.status)))];
  const out = [
    `## File Library contract: ${summary.totals.passed} passed, ${summary.totals.failed} failed, ${summary.totals.skipped} skipped`,
    "",
    `Target: ${summary.target.mode}${summary.target.baseUrl ? ` ${summary.target.baseUrl}` : ""}; ${summary.totals.requests} requests; seed ${summary.seed ?? "n/a"}.`,
    "",
    `| operation | ${statuses.join(" | ")} | undocumented |`,
    `|---|${statuses.map(() => "---").join("|")}|---|`,
  ];
  for (const op of summary.coverage.operations) {
    const cells = statuses.map((s) => {
      const d = op.documented.find((x) => x.status === s);
      return d ? (d.observed ? "seen" : "not seen") : "n/a";
    });
    out.push(`| ${op.operation} | ${cells.join(" | ")} | ${op.undocumented.join(", ") || "none"} |`);
  }
  out.push("", "| check | operation | result | note |", "|---|---|---|---|");
  for (const c of summary.checks) {
    const note = c.state === "failed" ? (c.failures[0]?.problem ?? "") : (c.note ?? c.warnings[0] ?? "");
    out.push(`| ${c.check} | ${c.operation} | ${c.state}${c.warnings.length > 0 ? " (warning)" : ""} | ${note.replace(/\|/g, "\\|")} |`);
  }
  return `${out.join("\n")}\n`;
}
