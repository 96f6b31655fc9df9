import { describe, expect, it } from "vitest";
import { proxySummary } from "../../contract-tests/proxy/proxy-reports.ts";
import { MESSAGES_PER_KIND, TrafficLog } from "../../contract-tests/proxy/traffic-log.ts";
import { loadBundledSpec } from "../../lib/openapi/load.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";

const finding = (operation: string) => ({
  side: "app" as const,
  operation,
  check: "operation_exists",
  problem: `no path of the spec matches ${operation}`,
  curl: "curl",
  status: 404,
});

describe("TrafficLog", () => {
  it("keeps each kind of finding once, counts the rest, and says the first of each kind at once", () => {
    const said: string[] = [];
    const log = new TrafficLog((line) => said.push(line));
    log.finding(finding("GET /a"));
    log.finding(finding("GET /a"));
    log.finding(finding("GET /b"));
    expect([...log.findings.values()].map((f) => [f.operation, f.count])).toEqual([
      ["GET /a", 2],
      ["GET /b", 1],
    ]);
    expect(said).toEqual([
      "contract proxy: FINDING (app) GET /a operation_exists: no path of the spec matches GET /a\n    reproduce: curl",
      "contract proxy: FINDING (app) GET /b operation_exists: no path of the spec matches GET /b\n    reproduce: curl",
    ]);
  });

  it("keeps at most 20 kinds of one check and 500 in all, however many paths an app calls, and the verdict still fails on those it only counted", () => {
    const log = new TrafficLog(() => {});
    for (let i = 0; i < 25; i++) log.finding(finding(`GET /path-${i}`));
    expect(log.findings.size).toBe(20);
    // 30 checks of 20 kinds each would be 600: the 500 in all come first.
    for (let i = 0; i < 600; i++) log.finding({ ...finding(`GET /other-${i}`), check: `check_${i % 30}` });
    expect(log.findings.size).toBe(500);
    const summary = proxySummary(loadBundledSpec(bundledSpec.json, "npm run build:spec"), "http://upstream.test", log);
    expect(summary.findingKindsLeftOut).toBe(5 + 120);
    expect(summary.findingsLeftOut.find((l) => l.check === "operation_exists")).toEqual({
      side: "app",
      check: "operation_exists",
      count: 5,
    });
    expect(summary.verdict).toBe("failed");
  });

  it("keeps each distinct message of a kind with its count, 5 at most, and counts the findings of further ones", () => {
    const said: string[] = [];
    const log = new TrafficLog((line) => said.push(line));
    const of = (problem: string) => ({ ...finding("GET /a"), problem, curl: `curl ${problem}` });
    for (const problem of ["one", "two", "one", "three", "four", "five", "six", "seven", "six", "two"])
      log.finding(of(problem));
    const [kind] = [...log.findings.values()];
    expect(MESSAGES_PER_KIND).toBe(5);
    expect(kind).toMatchObject({ problem: "one", curl: "curl one", count: 10, messagesLeftOut: 3 });
    expect(kind!.messages).toEqual([
      { problem: "one", count: 2, curl: "curl one" },
      { problem: "two", count: 2, curl: "curl two" },
      { problem: "three", count: 1, curl: "curl three" },
      { problem: "four", count: 1, curl: "curl four" },
      { problem: "five", count: 1, curl: "curl five" },
    ]);
    // Each message kept is said once, as it first comes; the findings of the others are only counted.
    expect(said.map((l) => l.split("\n")[0]!.split(": ").at(-1))).toEqual(["one", "two", "three", "four", "five"]);
  });

  it("tells the diagnosis once, and puts it first in the summary", () => {
    const said: string[] = [];
    const log = new TrafficLog((line) => said.push(line));
    log.diagnosis("this server answers the field names of the service's own OpenAPI document: fileId → id");
    log.diagnosis("another");
    expect(said).toEqual([
      "contract proxy: DIAGNOSIS: this server answers the field names of the service's own OpenAPI document: fileId → id",
    ]);
    const summary = proxySummary(loadBundledSpec(bundledSpec.json, "npm run build:spec"), "http://upstream.test", log);
    expect(Object.entries(summary)[0]).toEqual([
      "diagnosis",
      "this server answers the field names of the service's own OpenAPI document: fileId → id",
    ]);
  });

  it("cuts a problem and a curl command to their bounds, saying how long they were", () => {
    const said: string[] = [];
    const log = new TrafficLog((line) => said.push(line));
    log.finding({ ...finding("GET /a"), problem: "p".repeat(5_000), curl: "c".repeat(9_000) });
    const [kept] = [...log.findings.values()];
    expect(kept!.problem).toBe(`${"p".repeat(1_000)}… (5000 characters in all)`);
    expect(kept!.curl).toBe(`${"c".repeat(4_000)}… (9000 characters in all)`);
    expect(said[0]!.length).toBeLessThan(5_200);
  });
});
