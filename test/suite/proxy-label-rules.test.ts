// covers: contract-tests/proxy/traffic-rules.ts, contract-tests/proxy/judge-traffic.ts, contract-tests/proxy/traffic-log.ts, contract-tests/proxy/proxy-reports.ts
// The traffic rules' promise on labels (docs/checking-a-server.md, "Checking real traffic"; docs/decisions.md, D24),
// read from real runs: an app's real requests through a real proxy to a sandbox that loses, adds or reorders labels.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startProxy, type ProxyRun, type RunningProxy } from "../../contract-tests/index.ts";
import { createFileLibraryClient } from "../../src/index.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { sandbox, SANDBOX_KEY, type TestSandboxConfig } from "../support/sandbox.ts";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A sandbox playing `config`, a proxy in this process in front of it (its lines kept), both stopped after the test. */
async function proxiedSandbox(config: TestSandboxConfig): Promise<RunningProxy & { lines: string[] }> {
  const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, ...config });
  cleanups.push(() => sb.close());
  const lines: string[] = [];
  const proxy = await startProxy({
    upstream: sb.baseUrl,
    reportDir: await mkdtemp(path.join(os.tmpdir(), "file-library-proxy-labels-")),
    env: { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
    say: (line) => lines.push(line),
  });
  cleanups.push(() => proxy.stop());
  return Object.assign(proxy, { lines });
}

/**
 * An app with the kit's client: reads doc-1, updates its labels to `labels`, gets its download URL, then reads its
 * metadata: a later read, not the next exchange.
 */
async function updateThenRead(baseUrl: string, labels: string[]): Promise<string[]> {
  const files = createFileLibraryClient({ baseUrl, apiKey: SANDBOX_KEY, maxRetries: 0 }).files;
  await files.get("doc-1");
  await files.update("doc-1", { labels });
  await files.downloadUrl("doc-1");
  return (await files.get("doc-1")).labels;
}

/** The reports the run wrote: proxy-summary.json (parsed), proxy-summary.md and proxy-junit.xml. */
async function reports(run: ProxyRun) {
  const report = (name: string) => readFile(path.join(run.reportDir, name), "utf8");
  return {
    json: JSON.parse(await report("proxy-summary.json")),
    markdown: await report("proxy-summary.md"),
    junit: await report("proxy-junit.xml"),
  };
}

const TWELVE = Array.from({ length: 12 }, (_, i) => `l${i + 1}`);
const list = (labels: string[]) => JSON.stringify(labels);

describe("the proxy on the labels a read shows after an accepted update", { timeout: 60_000 }, () => {
  // A label lost (the server keeps the first ten) or added (it appends to the list it had): a finding, exit 1.
  it.each([
    { fault: "labels-first-ten", sent: TWELVE, shown: TWELVE.slice(0, 10) },
    { fault: "labels-appended", sent: ["q3"], shown: ["a", "b", "q3"] },
  ])(
    "finds labels lost or added ($fault) in every report, in the same words, and exits 1",
    async ({ fault, sent, shown }) => {
      const proxy = await proxiedSandbox({ fault });
      expect(await updateThenRead(proxy.url, sent)).toEqual(shown);
      const run = await proxy.stop();
      const problem = `after sending labels ${list(sent)}, getFile shows ${list(shown)} (file "doc-1", no other update between)`;

      expect(run.exitCode).toBe(1);
      expect(run.summary.warnings).toEqual([]);
      expect(run.summary.findings).toEqual([
        expect.objectContaining({
          side: "service",
          operation: "updateFile",
          check: "update_persisted",
          problem,
          count: 1,
          messages: [expect.objectContaining({ problem, count: 1 })],
        }),
      ]);
      const { json, markdown, junit } = await reports(run);
      expect(json).toEqual(run.summary);
      expect(markdown).toContain(`| service | updateFile | update_persisted | 1 | ${problem} |`);
      expect(junit).toContain(`<failure message="service: ${problem.replaceAll('"', "&quot;")}">`);
      // On stderr: the finding as it happened, then the sum at the end.
      expect(proxy.lines.find((l) => l.startsWith("contract proxy: FINDING"))?.split("\n")[0]).toBe(
        `contract proxy: FINDING (service) updateFile update_persisted: ${problem}`,
      );
      expect(proxy.lines).toContain("contract proxy: FAILED (service) updateFile update_persisted: 1 time(s)");
      expect(proxy.lines).toContain(`contract proxy:     1×: ${problem}`);
    },
  );

  // The same labels in another order, or with duplicates collapsed: a warning, no finding, exit 0.
  it.each([
    { variant: "labels-sorted", sent: ["b", "c", "a"], shown: ["a", "b", "c"] },
    { variant: "labels-deduplicated", sent: ["b", "a", "b"], shown: ["b", "a"] },
  ])(
    "warns of the same labels reordered or collapsed ($variant), finds nothing, and exits 0",
    async ({ variant, sent, shown }) => {
      const proxy = await proxiedSandbox({ variant });
      expect(await updateThenRead(proxy.url, sent)).toEqual(shown);
      const run = await proxy.stop();
      const problem = `after sending labels ${list(sent)}, getFile shows ${list(shown)}: the same labels, in another order or with duplicates collapsed (file "doc-1", no other update between)`;

      expect(run.exitCode).toBe(0);
      expect(run.summary.findings).toEqual([]);
      expect(run.summary.warnings).toEqual([
        expect.objectContaining({ operation: "updateFile", check: "update_persisted", problem, count: 1 }),
      ]);
      expect((await reports(run)).json.warnings).toEqual(run.summary.warnings);
      expect(proxy.lines.filter((l) => /^contract proxy: (WARNING|FINDING|FAILED)/.test(l))).toEqual([
        `contract proxy: WARNING updateFile update_persisted: ${problem}`,
      ]);
    },
  );
});
