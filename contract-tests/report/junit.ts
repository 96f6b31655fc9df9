import type { CheckOutcome, ContractSummary } from "./shapes.ts";

// XML 1.0 has no place for most control characters, even escaped: they are shown as \uXXXX instead.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text as XML character data or an attribute value. */
const xml = (text: string) =>
  text
    .replace(NOT_XML, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** One check on one operation as a test case: a failure, a check that did not run (an error), a skip, or a pass. */
function testCase(c: CheckOutcome): string {
  const open = `    <testcase classname="${xml(c.operation)}" name="${xml(c.check)}" time="${seconds(c.durationMs)}"`;
  const warnings =
    c.warnings.length > 0
      ? `\n      <system-out>${xml(c.warnings.map((w) => `WARNING ${w}`).join("\n"))}</system-out>`
      : "";
  if (c.state === "failed") {
    const failures = c.failures.map((f) => {
      const curl = f.evidence?.curl ?? f.noAnswer?.curl;
      return `\n      <failure message="${xml(f.problem)}" type="${xml(c.check)}">${xml(`${f.problem}${curl ? `\nreproduce: ${curl}` : ""}`)}</failure>`;
    });
    return `${open}>${failures.join("")}${warnings}\n    </testcase>`;
  }
  // A check the run could not get to is no skip a CI view may hide: it is an error of the run.
  if (c.state === "not run")
    return `${open}>\n      <error message="${xml(c.note ?? "not run")}" type="not run"/>${warnings}\n    </testcase>`;
  if (c.state === "skipped")
    return `${open}>\n      <skipped message="${xml(c.note ?? "skipped")}"/>${warnings}\n    </testcase>`;
  return warnings ? `${open}>${warnings}\n    </testcase>` : `${open}/>`;
}

/** The run as JUnit XML (contract-junit.xml): one test suite per operation, one test case per check. */
export function junitXml(summary: ContractSummary, name = "file-library-contract"): string {
  const operations = [...new Set(summary.checks.map((c) => c.operation))];
  const count = (checks: CheckOutcome[]) => ({
    tests: checks.length,
    failures: checks.filter((c) => c.state === "failed").length,
    errors: checks.filter((c) => c.state === "not run").length,
    skipped: checks.filter((c) => c.state === "skipped").length,
    time: seconds(checks.reduce((ms, c) => ms + c.durationMs, 0)),
  });
  const attributes = (n: ReturnType<typeof count>) =>
    `tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}" time="${n.time}"`;
  const suites = operations.map((operation) => {
    const checks = summary.checks.filter((c) => c.operation === operation);
    return `  <testsuite name="${xml(operation)}" ${attributes(count(checks))}>\n${checks.map(testCase).join("\n")}\n  </testsuite>`;
  });
  const stopped = summary.stopped ? `\n  <system-err>${xml(`STOPPED ${summary.stopped.reason}`)}</system-err>` : "";
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${name}" ${attributes(count(summary.checks))}>\n${suites.join("\n")}${stopped}\n</testsuites>\n`;
}
