import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import type { RequestRule } from "../../lib/openapi/request-inspection.ts";
import { responseChecks } from "../checks/catalogue.ts";
import { statusCoverage } from "../report/coverage.ts";
import type { CountedFinding, ProxySummary } from "./proxy-summary.ts";
import type { TrafficLog } from "./traffic-log.ts";
import { writeReportFiles } from "../report/write-whole.ts";

export type { ProxySummary } from "./proxy-summary.ts";

/** The request rules every operation is judged by (lib/openapi/request-inspection.ts). */
const REQUEST_RULES: readonly RequestRule[] = [
  "operation_exists",
  "path_parameters_valid",
  "auth_sent",
  "request_content_type",
  "request_body_valid",
];

/** The checks of one operation, in report order: the app's rules, the answer's checks, then the operation's own. */
function checksOf(operation: string): string[] {
  const own: Record<string, string[]> = {
    getFile: ["metadata_of_requested_file", "update_changes_only_its_fields", "file_existence_consistent"],
    getFileDownloadUrl: ["download_url_valid", "file_existence_consistent"],
    updateFile: ["update_persisted"],
  };
  return [...REQUEST_RULES, ...responseChecks.map((c) => c.name), ...(own[operation] ?? [])];
}

/** The run's summary, from what its log counted. */
export function proxySummary(spec: OpenApiValidator, upstream: string, log: TrafficLog): ProxySummary {
  const operations = spec.operationIds();
  const seen = [...log.statuses.entries()].flatMap(([operationId, counts]) =>
    [...counts.keys()].map((status) => ({ operationId, status })),
  );
  const failed = log.upstreamFailureCount;
  const stopped =
    log.answered > 0
      ? undefined
      : failed > 0
        ? `the upstream ${upstream} answered none of the ${failed} request(s) sent to it (the first: ${log.upstreamFailures[0]?.reason ?? "no answer"}): check --upstream`
        : `no request reached the upstream ${upstream}: nothing was sent through the proxy, so nothing was checked (does the app read FILE_LIBRARY_BASE_URL?)`;
  return {
    // First, when there is one: it says why the failures below it come (docs/decisions.md, D24).
    ...(log.diagnosed ? { diagnosis: log.diagnosed } : {}),
    upstream,
    ...(stopped ? { stopped } : {}),
    verdict: log.findings.size > 0 || log.kindsLeftOut > 0 ? "failed" : "passed",
    exchanges: log.exchanges,
    coverage: statusCoverage(spec, seen, operations),
    statuses: [...log.statuses.entries()].map(([operation, counts]) => ({
      operation,
      requests: [...counts.values()].reduce((a, b) => a + b, 0),
      byStatus: Object.fromEntries(
        [...counts.entries()].sort(([a], [b]) => a - b).map(([status, n]) => [String(status), n]),
      ),
    })),
    unseen: operations.filter((operation) => !log.statuses.has(operation)),
    unmatched: log.unmatched,
    findings: [...log.findings.values()],
    findingKindsLeftOut: log.kindsLeftOut,
    findingsLeftOut: [...log.leftOut.values()],
    warnings: [...log.warnings.values()],
    notChecked: [...log.unchecked.values()],
    upstreamFailures: { count: log.upstreamFailureCount, examples: log.upstreamFailures },
    clientsGone: log.clientsGone,
    cutAtStop: log.cutAtStop,
    refusedWhileStopping: {
      count: log.refusedWhileStopping.count,
      examples: [...log.refusedWhileStopping.examples],
    },
    preflights: log.preflights,
  };
}

const xml = (text: string) =>
  // XML 1.0 allows no control character but tab, newline and carriage return, not even escaped.
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "")
    .replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);

/** proxy-junit.xml: one test case per check per operation seen; each operation never seen, one skipped case. */
export function proxyJunit(spec: OpenApiValidator, summary: ProxySummary): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  const suite = (name: string, cases: string[], failed: number, skips: number) => {
    tests += cases.length;
    failures += failed;
    skipped += skips;
    suites.push(
      `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${failed}" skipped="${skips}">\n${cases.join("\n")}\n  </testsuite>`,
    );
  };
  const failure = (f: CountedFinding) => {
    const others = f.messages.length - 1 + (f.messagesLeftOut > 0 ? 1 : 0);
    const message = `${f.side}: ${f.problem}${others > 0 ? ` (and other messages: ${f.messages.length} distinct${f.messagesLeftOut ? `, ${f.messagesLeftOut} finding(s) of further ones` : ""})` : ""}`;
    const each = f.messages.map((m) => `${m.count} time(s): ${m.problem}\nreproduce: ${m.curl}`);
    if (f.messagesLeftOut > 0) each.push(moreMessages(f));
    return `      <failure message="${xml(message)}">${xml(`${f.side} side, ${f.count} time(s):\n${each.join("\n")}`)}</failure>`;
  };
  for (const operation of spec.operationIds()) {
    if (summary.unseen.includes(operation)) {
      suite(
        operation,
        [
          `    <testcase classname="${xml(operation)}" name="not seen in the traffic">\n      <skipped message="no request of the traffic called ${xml(operation)}"/>\n    </testcase>`,
        ],
        0,
        1,
      );
      continue;
    }
    let failed = 0;
    const listed = checksOf(operation);
    // A finding of a check no operation lists (traffic_rules: a rule that failed, on the proxy's side) gets a case too.
    const extra = summary.findings
      .filter((f) => f.operation === operation && !listed.includes(f.check))
      .map((f) => f.check);
    const cases = [...listed, ...new Set(extra)].map((check) => {
      const found = summary.findings.filter((f) => f.operation === operation && f.check === check);
      if (found.length > 0) failed++;
      const body = found.map(failure).join("\n");
      return `    <testcase classname="${xml(operation)}" name="${xml(check)}">${body ? `\n${body}\n    ` : ""}</testcase>`;
    });
    suite(operation, cases, failed, 0);
  }
  const unmatched = summary.findings.filter((f) => !spec.operationIds().includes(f.operation));
  if (unmatched.length > 0) {
    suite(
      "requests matching no operation",
      unmatched.map(
        (f) =>
          `    <testcase classname="unmatched" name="${xml(`${f.operation} ${f.check}`)}">\n${failure(f)}\n    </testcase>`,
      ),
      unmatched.length,
      0,
    );
  }
  if (summary.findingKindsLeftOut > 0) {
    // Counted, not kept: they still fail the run, and the JUnit says so.
    const counts = summary.findingsLeftOut.map((l) => `${l.side} ${l.check}: ${l.count}`).join("; ");
    suite(
      "findings past the report's bounds",
      [
        `    <testcase classname="left out" name="findings counted, not kept">\n      <failure message="${xml(`${summary.findingKindsLeftOut} finding(s) of further kinds, counted only`)}">${xml(counts)}</failure>\n    </testcase>`,
      ],
      1,
      0,
    );
  }
  if (summary.refusedWhileStopping.count > 0) {
    // Not a finding of the service's, but traffic the run did not check: a dashboard that reads only the JUnit sees it.
    suite(
      "stopping",
      [
        `    <testcase classname="stopping" name="every request judged">\n      <failure message="${xml(refusedLine(summary))}"/>\n    </testcase>`,
      ],
      1,
      0,
    );
  }
  if (summary.recordingIncomplete) {
    // Not a finding of the traffic, but the run failed at what it was asked: a dashboard that reads only the JUnit sees it.
    suite(
      "recording",
      [
        `    <testcase classname="recording" name="every exchange recorded">\n      <failure message="${xml(summary.recordingIncomplete)}"/>\n    </testcase>`,
      ],
      1,
      0,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="file-library-contract proxy" tests="${tests}" failures="${failures}" skipped="${skipped}">\n${suites.join("\n")}\n</testsuites>\n`;
}

/**
 * The one line every report gives for the requests refused while the proxy was stopping: how many, and the first few
 * (method and redacted path). Empty when there were none.
 */
export function refusedLine(summary: Pick<ProxySummary, "refusedWhileStopping">): string {
  const { count, examples } = summary.refusedWhileStopping;
  if (count === 0) return "";
  const named = examples.map((e) => `${e.method} ${e.path}`).join(", ");
  const more = count > examples.length ? `, and ${count - examples.length} more` : "";
  return `${count} request(s) came while the proxy was stopping and got its 503, forwarded nowhere and judged by nothing (${named}${more}): the app's traffic was not all checked; stop the proxy once the app is done`;
}

/** The line that counts a kind's findings of messages past MESSAGES_PER_KIND. */
const moreMessages = (f: CountedFinding) =>
  `and ${f.messagesLeftOut} more finding(s) with other messages, counted only`;

/**
 * The run's findings for stderr at its end: the diagnosis first, when there is one, then each kind once (side,
 * operation, check) with its count, and under it each distinct message with its own; nothing when there is neither.
 */
export function findingLines(summary: ProxySummary): string[] {
  const lines = summary.diagnosis ? [`DIAGNOSIS: ${summary.diagnosis}`] : [];
  for (const f of summary.findings) {
    lines.push(
      `FAILED (${f.side}) ${f.operation} ${f.check}: ${f.count} time(s)`,
      ...f.messages.map((m) => `    ${m.count}×: ${m.problem}`),
    );
    if (f.messagesLeftOut > 0) lines.push(`    ${moreMessages(f)}`);
  }
  for (const l of summary.findingsLeftOut)
    lines.push(
      `FAILED (${l.side}) ${l.check}: ${l.count} more finding(s) of kinds past the report's bounds, counted only`,
    );
  return lines;
}

/** proxy-summary.md: the diagnosis, when there is one; the coverage of real traffic; then every kind of finding. */
export function proxyMarkdown(summary: ProxySummary): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const statuses = [...new Set(summary.coverage.operations.flatMap((o) => o.documented.map((d) => d.status)))];
  const messages = (f: CountedFinding) =>
    f.messages.length === 1 && f.messagesLeftOut === 0
      ? cell(f.problem)
      : [
          ...f.messages.map((m) => `${m.count}×: ${cell(m.problem)}`),
          ...(f.messagesLeftOut > 0 ? [moreMessages(f)] : []),
        ].join("<br>");
  const out = [
    `## File Library contract, real traffic: ${summary.findings.length} kind(s) of finding`,
    "",
    ...(summary.diagnosis ? [`**Diagnosis:** ${summary.diagnosis}.`, ""] : []),
    ...(summary.stopped ? [`**Nothing was checked:** ${summary.stopped}.`, ""] : []),
    ...(summary.recordingIncomplete ? [`**Recording incomplete:** ${summary.recordingIncomplete}.`, ""] : []),
    ...(summary.refusedWhileStopping.count > 0 ? [`**Not all checked:** ${cell(refusedLine(summary))}.`, ""] : []),
    `Upstream ${summary.upstream}; ${summary.exchanges} exchanges; ${summary.upstreamFailures.count} unanswered by the upstream; ${summary.notChecked.reduce((n, c) => n + c.count, 0)} not checked.`,
    "",
    `| operation | requests | ${statuses.join(" | ")} | undocumented |`,
    `|---|---|${statuses.map(() => "---").join("|")}|---|`,
  ];
  for (const op of summary.coverage.operations) {
    const requests = summary.statuses.find((s) => s.operation === op.operation)?.requests ?? 0;
    const cells = statuses.map((s) => {
      const d = op.documented.find((x) => x.status === s);
      return d ? (d.observed ? "seen" : "not seen") : "n/a";
    });
    out.push(`| ${op.operation} | ${requests} | ${cells.join(" | ")} | ${op.undocumented.join(", ") || "none"} |`);
  }
  out.push("", "| side | operation | check | count | messages |", "|---|---|---|---|---|");
  for (const f of summary.findings)
    out.push(`| ${f.side} | ${cell(f.operation)} | ${f.check} | ${f.count} | ${messages(f)} |`);
  if (summary.findings.length === 0) out.push("| | | none | | |");
  for (const l of summary.findingsLeftOut)
    out.push(
      "",
      `${l.count} more finding(s) of ${l.side} ${l.check}, of kinds past the report's bounds: counted, not kept.`,
    );
  return `${out.join("\n")}\n`;
}

/** Writes proxy-junit.xml, proxy-summary.json and proxy-summary.md into `dir`. */
export async function writeProxyReports(dir: string, spec: OpenApiValidator, summary: ProxySummary): Promise<void> {
  await writeReportFiles(dir, {
    "proxy-junit.xml": proxyJunit(spec, summary),
    "proxy-summary.json": `${JSON.stringify(summary, null, 2)}\n`,
    "proxy-summary.md": proxyMarkdown(summary),
  });
}
