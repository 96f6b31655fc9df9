// covers: contract-tests/proxy/judge-traffic.ts, contract-tests/proxy/traffic-rules.ts, contract-tests/proxy/traffic-log.ts, contract-tests/proxy/proxy-reports.ts, contract-tests/proxy/start-proxy.ts
import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { AI21 } from "ai21";
import { startProxy, type RunningProxy } from "../../contract-tests/index.ts";
import { documentShapedServer } from "../support/document-shaped-server.ts";
import { sandbox, SANDBOX_KEY } from "../support/sandbox.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A proxy in this process in front of `upstream`, its lines kept; stopped after the test if the test did not stop it. */
async function proxyTo(upstream: string, apiKey: string): Promise<RunningProxy & { lines: string[] }> {
  const lines: string[] = [];
  const reportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-proxy-sdk-"));
  const proxy = await startProxy({
    upstream,
    reportDir,
    env: { FILE_LIBRARY_API_KEY: apiKey },
    say: (line) => lines.push(line),
  });
  cleanups.push(() => proxy.stop());
  return Object.assign(proxy, { lines });
}

/** The service's official TypeScript SDK, as an app creates it, pointed at the proxy. */
const officialClient = (proxyUrl: string, apiKey: string) =>
  new AI21({ apiKey, baseURL: `${proxyUrl}/studio/v1`, maxRetries: 0 });

/**
 * What an app does with the official SDK: reads, then every form of update it can send (labels only, publicUrl only,
 * both, each with null; the SDK PUTs the whole object, `fileId` included, and keeps a null), each read back.
 */
async function sdkApp(client: AI21, fileId: string): Promise<unknown[]> {
  const reads = [await client.files.get(fileId)];
  const updates: Array<Parameters<AI21["files"]["update"]>[0]> = [
    { fileId, labels: ["q3", "finance"] },
    { fileId, publicUrl: "https://cdn.example.test/q3.pdf" },
    { fileId, labels: ["q4"], publicUrl: "www.example.com" },
    // The Python SDK 1.0.0 to 2.2.4 sends this for a labels-only update.
    { fileId, labels: ["q1"], publicUrl: null as unknown as string },
    { fileId, labels: null as unknown as string[], publicUrl: "https://cdn.example.test/q1.pdf" },
    { fileId, labels: null as unknown as string[], publicUrl: null as unknown as string },
    { fileId, labels: [] },
  ];
  for (const update of updates) {
    await client.files.update(update);
    reads.push(await client.files.get(fileId));
  }
  return reads;
}

describe("an app using the service's official TypeScript SDK (ai21), through the proxy", { timeout: 60_000 }, () => {
  it("gets no finding against the sandbox: its get and every form of its update, nulls and fileId included", async () => {
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
    cleanups.push(() => sb.close());
    const proxy = await proxyTo(sb.baseUrl, SANDBOX_KEY);
    const reads = await sdkApp(officialClient(proxy.url, SANDBOX_KEY), "doc-1");
    const run = await proxy.stop();
    // Each update the SDK sent reached the sandbox and changed what it sent (labels null: kept as they were). Whether a
    // publicUrl sent as null keeps its value is the sandbox's to hold (its own tests); the proxy expects no null either way.
    expect(reads.slice(1).map((r) => (r as { labels: string[] }).labels)).toEqual([
      ["q3", "finance"],
      ["q3", "finance"],
      ["q4"],
      ["q1"],
      ["q1"],
      ["q1"],
      [],
    ]);
    expect(run.summary.findings, proxy.lines.join("\n")).toEqual([]);
    expect(run.summary.warnings, proxy.lines.join("\n")).toEqual([]);
    expect(run.summary.statuses).toEqual(
      expect.arrayContaining([
        { operation: "getFile", requests: 8, byStatus: { 200: 8 } },
        { operation: "updateFile", requests: 7, byStatus: { 200: 7 } },
      ]),
    );
    expect(run.exitCode).toBe(0);
  });
});

describe("the proxy in front of a server that answers as the service's own OpenAPI document says", {
  timeout: 60_000,
}, () => {
  it("says the diagnosis first, on stderr and in its summaries, then each failing check once with its count", async () => {
    const server = await documentShapedServer();
    cleanups.push(() => server.close());
    const proxy = await proxyTo(server.baseUrl, server.apiKey);
    const client = officialClient(proxy.url, server.apiKey);
    for (let i = 0; i < 3; i++) await client.files.get(server.fileId);
    await client.files.update({ fileId: server.fileId, labels: ["b", "a"] });
    // The same UUID in capitals: the same file (RFC 9562), read after the update like the others.
    await client.files.get(server.fileId.toUpperCase());
    const run = await proxy.stop();
    const diagnosis =
      "this server answers the field names of the service's own OpenAPI document: fileId → id, sizeBytes → size, creationDate → created_at";

    const failures = proxy.lines.filter((l) => /^contract proxy: (DIAGNOSIS|FINDING|FAILED)/.test(l));
    expect(failures[0]).toMatch(new RegExp(`^contract proxy: DIAGNOSIS: ${diagnosis}`));
    // The summary at the end: the diagnosis first again, then each failing check of each operation once, counted.
    const end = proxy.lines.slice(proxy.lines.findLastIndex((l) => l.startsWith("contract proxy: DIAGNOSIS: ")));
    expect(end[0]).toContain(diagnosis);
    const failed = end.filter((l) => l.startsWith("contract proxy: FAILED"));
    expect(failed).toContain("contract proxy: FAILED (service) getFile response_schema_conformance: 4 time(s)");
    expect(new Set(failed).size).toBe(failed.length);
    expect(failed.length).toBe(run.summary.findings.length);
    // lastUpdated moved on the update, the capitals named the same file: no finding of either.
    expect(run.summary.findings.map((f) => f.check)).not.toContain("update_changes_only_its_fields");
    expect(run.summary.findings.map((f) => f.check)).not.toContain("update_persisted");
    expect(run.summary.warnings.map((w) => `${w.operation} ${w.check}`)).toEqual([]);

    expect(run.summary.diagnosis).toContain(diagnosis);
    const json = await readFile(path.join(run.reportDir, "proxy-summary.json"), "utf8");
    expect(Object.keys(JSON.parse(json))[0]).toBe("diagnosis");
    const markdown = await readFile(path.join(run.reportDir, "proxy-summary.md"), "utf8");
    expect(markdown.split("\n").find((l) => l.startsWith("**") || l.startsWith("| service"))).toContain(
      `**Diagnosis:** ${diagnosis}`,
    );
    expect(markdown).toContain("| service | getFile | response_schema_conformance | 4 |");
    expect(run.exitCode).toBe(1);
  });
});

describe("the proxy's rules, on answers a correct server may give", { timeout: 60_000 }, () => {
  it("takes a 422 for the file's UUID in other letters as correct: no existence finding, though the same id in its own letters was served", async () => {
    const server = await documentShapedServer({ exactCase: true });
    cleanups.push(() => server.close());
    const proxy = await proxyTo(server.baseUrl, server.apiKey);
    const client = officialClient(proxy.url, server.apiKey);
    await client.files.get(server.fileId);
    await expect(client.files.get(server.fileId.toUpperCase())).rejects.toThrow(/status 422/);
    await client.files.get(server.fileId);
    const run = await proxy.stop();
    expect(run.summary.findings.map((f) => f.check)).not.toContain("file_existence_consistent");
    // What fails is what the field names explain, as against the service-shaped server above.
    expect(new Set(run.summary.findings.map((f) => `${f.operation} ${f.check}`))).toEqual(
      new Set(["getFile response_schema_conformance", "getFile metadata_of_requested_file"]),
    );
  });

  it("warns, and finds nothing, when the labels come back sorted (a server that keeps them as a set)", async () => {
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, variant: "labels-sorted" });
    cleanups.push(() => sb.close());
    const proxy = await proxyTo(sb.baseUrl, SANDBOX_KEY);
    const client = officialClient(proxy.url, SANDBOX_KEY);
    await client.files.update({ fileId: "doc-1", labels: ["b", "a"] });
    expect((await client.files.get("doc-1")).labels).toEqual(["a", "b"]);
    await client.files.update({ fileId: "doc-1", labels: ["b", "a", "c", "d"] });
    await client.files.update({ fileId: "doc-1", labels: ["a", "c", "d", "b"] });
    expect((await client.files.get("doc-1")).labels).toEqual(["a", "b", "c", "d"]);
    const run = await proxy.stop();
    expect(run.summary.findings).toEqual([]);
    expect(run.summary.warnings.map((w) => `${w.operation} ${w.check}`)).toEqual(["updateFile update_persisted"]);
    expect(run.exitCode).toBe(0);
  });
});
