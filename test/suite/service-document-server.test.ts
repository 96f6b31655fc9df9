// covers: contract-tests/run/run-checks.ts, contract-tests/run/progress-lines.ts, contract-tests/run/run-summary.ts, contract-tests/run/check-state.ts, contract-tests/report/summary-format.ts, contract-tests/checks/service-document-shape.ts
// The suite against a server that answers as the service's own OpenAPI document says (test/support/document-shaped-server.ts),
// read-only and with write checks: one diagnosis line first, then only the failures the field names explain, each
// once; every other check passes (the SDKs' bodies, null, the UUID in another case, the 20-label limit, lastUpdated);
// and every check's last mark on the console is its state in contract-summary.json.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenarioChecks } from "../../contract-tests/checks/catalogue.ts";
import { serviceDocumentShape } from "../../contract-tests/checks/service-document-shape.ts";
import type { CheckOutcome } from "../../contract-tests/report/shapes.ts";
import { runContractSuite, SEED, suiteAgainstSandbox, type ContractRun } from "../support/contract-suite.ts";
import { documentShapedServer, type DocumentShapedServer } from "../support/document-shaped-server.ts";

/**
 * The failures the document's field names explain, and why: its metadata has fileId, sizeBytes and creationDate where
 * the description has id, size and created_at. Every other check passes (metadata_size_matches_content skips: there
 * is no size to compare).
 */
const EXPLAINED = [
  "getFile response_schema_conformance", // FileMetadata requires id, size and created_at
  "getFile metadata_of_requested_file", // the metadata's id is undefined, not the requested one
];

/** The console's last mark of each scenario check, by "operation check": a line printed again (failed later) counts last. */
function consoleStates(output: string): Map<string, CheckOutcome["state"]> {
  const states = new Map<string, CheckOutcome["state"]>();
  for (const line of output.split("\n")) {
    const mark = /^ {2}([✓✗!-]) (\w+) (\w+)/.exec(line);
    if (!mark) continue;
    const state = ({ "✓": "passed", "✗": "failed", "!": "not run", "-": "skipped" } as const)[
      mark[1] as "✓" | "✗" | "!" | "-"
    ];
    states.set(`${mark[2]} ${mark[3]}`, state);
  }
  return states;
}

let server: DocumentShapedServer;
let readOnly: ContractRun;
let writes: ContractRun;
beforeAll(async () => {
  server = await documentShapedServer();
  const options = { baseUrl: server.baseUrl, apiKey: server.apiKey, fileId: server.fileId, seed: SEED };
  readOnly = await runContractSuite(options);
  // With a publicUrl to put back, the write run also sends the SDKs' bodies that set one, www.example.com among them.
  server.file.publicUrl = "https://cdn.example.test/notes.txt";
  writes = await runContractSuite({ ...options, writeChecks: true });
}, 120_000);
afterAll(() => server?.close());

describe.each([
  ["read-only", () => readOnly],
  ["with write checks", () => writes],
])("the suite against a server in the shape of the service's own document, %s", (_mode, theRun) => {
  it("prints the diagnosis first: before every failure on the console, first in the summary, and in contract-summary.json", () => {
    const run = theRun();
    const diagnosis = serviceDocumentShape(server.file)!;
    expect(diagnosis).toMatch(
      /^this server answers the field names of the service's own OpenAPI document: fileId → id, sizeBytes → size, creationDate → created_at/,
    );
    expect(run.summary.diagnosis).toBe(diagnosis);
    const lines = run.output.split("\n");
    const first = lines.findIndex((line) => line.includes(diagnosis));
    const firstFailure = lines.findIndex((line) => line.startsWith("  ✗") || line.startsWith("FAILED"));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(firstFailure);
    const header = lines.findIndex((line) => line.startsWith("Contract summary ("));
    expect(lines[header + 1]).toBe(`DIAGNOSIS ${diagnosis}`);
  });

  it("fails exactly the checks the field names explain, each once; the others pass", () => {
    const run = theRun();
    expect(run.exitCode).toBe(1);
    const failed = run.summary.checks.filter((c) => c.state === "failed").map((c) => `${c.operation} ${c.check}`);
    expect(failed).toEqual(EXPLAINED);
    const failedLines = run.output.split("\n").filter((line) => line.startsWith("FAILED "));
    expect(failedLines.map((line) => line.split(":")[0]!.replace(/^FAILED {2}/, ""))).toEqual(EXPLAINED);
    const state = (operation: string, check: string) =>
      run.summary.checks.find((c) => c.operation === operation && c.check === check)?.state;
    for (const operation of ["getFile", "updateFile", "getFileDownloadUrl"])
      expect(state(operation, "unknown_id_rejected"), operation).toBe("passed");
    expect(state("getFileDownloadUrl", "metadata_size_matches_content")).toBe("skipped");
    expect(run.summary.totals.notRun).toBe(0);
  });

  it("shows the same state on the console as in the summary for every scenario check", () => {
    const run = theRun();
    const shown = consoleStates(run.output);
    const names = new Set(scenarioChecks.map((c) => c.name));
    const scenarios = run.summary.checks.filter((c) => names.has(c.check));
    expect(scenarios).toHaveLength(17);
    for (const c of scenarios)
      expect(shown.get(`${c.operation} ${c.check}`), `${c.operation} ${c.check}`).toBe(c.state);
  });

  it("opens the Markdown report's findings with the diagnosis", async () => {
    const markdown = await readFile(path.join(theRun().reportDir, "contract-coverage.md"), "utf8");
    const diagnosis = markdown.indexOf(`**Diagnosis:** ${theRun().summary.diagnosis}`);
    expect(diagnosis).toBeGreaterThan(0);
    expect(diagnosis).toBeLessThan(markdown.indexOf("### Failures"));
  });
});

describe("with write checks, what the document's server does is the contract's", () => {
  const state = (check: string) =>
    writes.summary.checks.find((c) => c.operation === "updateFile" && c.check === check)?.state;

  it("passes the update's checks: the SDKs' bodies, null, the 20-label limit, lastUpdated moving, the file put back", () => {
    for (const check of [
      "positive_data_acceptance",
      "negative_data_rejection",
      "update_persisted",
      "update_changes_only_its_fields",
      "omitted_fields_kept",
      "file_left_as_found",
    ]) {
      expect(state(check), check).toBe("passed");
    }
    expect(writes.summary.checks.flatMap((c) => c.warnings)).toEqual([]);
    expect(server.file).toMatchObject({ labels: ["finance"], publicUrl: "https://cdn.example.test/notes.txt" });
  });

  it("sent the official SDKs' bodies, the documented www.example.com among them, and the label classes in lists of at most 20", () => {
    const bodies = server.requests.filter((r) => r.method === "PUT").map((r) => r.body);
    expect(bodies).toContain(
      JSON.stringify({ fileId: server.fileId, labels: ["finance", "contract-check-sdk"], publicUrl: null }),
    );
    expect(bodies).toContain(JSON.stringify({ publicUrl: null, labels: ["finance", "contract-check-sdk"] }));
    expect(bodies).toContain(JSON.stringify({ publicUrl: "www.example.com" }));
    expect(bodies).toContain(JSON.stringify({ labels: ["dup", "dup"] }));
    const parsed = bodies.flatMap((body) => {
      try {
        return [JSON.parse(body) as { labels?: unknown }];
      } catch {
        return [];
      }
    });
    const accepted = parsed.filter((body) => Array.isArray(body?.labels) && body.labels.includes("  padded  "));
    expect(accepted.map((body) => (body.labels as string[]).length)).toEqual([60, 20]);
  });
});

describe("the suite against correct servers that answer otherwise than the service", () => {
  it("passes unknown_id_rejected on a server that refuses the file's UUID in other letters with 422 (the same UUID, RFC 9562)", async () => {
    const exact = await documentShapedServer({ exactCase: true });
    try {
      const run = await runContractSuite({
        baseUrl: exact.baseUrl,
        apiKey: exact.apiKey,
        fileId: exact.fileId,
        seed: SEED,
        checks: ["unknown_id_rejected"],
      });
      expect(run.exitCode, run.output).toBe(0);
      expect(exact.requests.some((r) => r.method === "GET" && r.path.endsWith(exact.fileId.toUpperCase()))).toBe(true);
    } finally {
      await exact.close();
    }
  });

  it("names a date for created_at in its diagnosis, before the schema's failure (the sandbox's fault created-at-as-date)", async () => {
    const run = await suiteAgainstSandbox(
      { fault: "created-at-as-date" },
      { checks: ["response_schema_conformance", "positive_data_acceptance"] },
    );
    expect(run.exitCode, run.output).toBe(1);
    const diagnosis =
      /^this server answers a date for created_at \("\d{4}-\d{2}-\d{2}"\), where the description has a UTC timestamp/;
    expect(run.summary.diagnosis).toMatch(diagnosis);
    const lines = run.output.split("\n");
    const at = lines.findIndex((line) => line.startsWith("DIAGNOSIS "));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(lines.findIndex((line) => line.startsWith("FAILED ")));
  });
});
