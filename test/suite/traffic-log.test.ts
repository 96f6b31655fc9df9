import { describe, expect, it } from "vitest";
import { proxySummary } from "../../contract-tests/proxy/proxy-reports.ts";
import { TrafficLog } from "../../contract-tests/proxy/traffic-log.ts";
import { loadBundledSpec } from "../../lib/openapi/load.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";

const finding = (operation: string) => ({ side: "app" as const, operation, check: "operation_exists", problem: `no path of the spec matches ${operation}`, curl: "curl", status: 404 });

describe("TrafficLog", () => {
  it("keeps each kind of finding once, counts the rest, and says the first of each kind at once", () => {
    const said: string[] = [];
    const log = new TrafficLog((line) => said.push(line));
    log.finding(finding("GET /a"));
    log.finding(finding("GET /a"));
    log.finding(finding("GET /b"));
    expect([...log.findings.values()].map((f) => [f.operation, f.count])).toEqual([["GET /a", 2], ["GET /b", 1]]);
    expect(said).toEqual([
      "contract proxy: FINDING (app) GET /a operation_exists: no path of the spec matches GET /a\n    reproduce: curl",
      "contract proxy: FINDING (app) GET /b operation_exists: no path of the spec matches GET /b\n    reproduce: curl",
    ]);
  });

  it("keeps at most 500 kinds however many paths an app calls, and the verdict still fails on those it only counted", () => {
    const log = new TrafficLog(() => {});
    for (let i = 0; i < 520; i++) log.finding(finding(`GET /path-${i}`));
    expect(log.findings.size).toBe(500);
    const summary = proxySummary(loadBundledSpec(bundledSpec.json, "npm run build:spec"), "http://upstream.test", log);
    expect(summary.findingKindsLeftOut).toBe(20);
    expect(summary.verdict).toBe("failed");
  });
});
