// covers: contract-tests/pact/read-pact.ts, contract-tests/pact/pact-reports.ts, contract-tests/runner/pact-command.ts
// The two bounds of `pact check` (docs/decisions.md, D26): a pact is read whole up to 256 MiB, and the reports list
// 1,000 findings and count the rest. Run through the command's own entry, in this process.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, open, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { FINDINGS_KEPT } from "../../contract-tests/pact/pact-reports.ts";
import { MAX_PACT_BYTES } from "../../contract-tests/pact/read-pact.ts";
import { runPactCommand } from "../../contract-tests/runner/pact-command.ts";
import { ensureBundle } from "../support/sandbox.ts";

const NAME = "file-library-contract";
const MiB = 1024 * 1024;
let scratch: string;
beforeAll(async () => {
  ensureBundle();
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-pact-limits-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** `pact check FILE` through its command: the exit code, its lines, and where its reports went. */
async function check(file: string) {
  const reportDir = path.join(scratch, `reports-${path.basename(file)}`);
  const said: string[] = [];
  const spies = [vi.spyOn(console, "error"), vi.spyOn(console, "log")].map((spy) =>
    spy.mockImplementation((line: string) => void said.push(line)),
  );
  try {
    return { code: await runPactCommand(["check", file, "--report-dir", reportDir], NAME, {}), said, reportDir };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** A sparse file of `size` bytes that begins with `{`: nothing on disk, and no JSON if it is read. */
async function sparseFile(name: string, size: number): Promise<string> {
  const file = path.join(scratch, name);
  const handle = await open(file, "w");
  try {
    await handle.write("{");
    await handle.truncate(size);
  } finally {
    await handle.close();
  }
  return file;
}

describe("pact check of a pact over 256 MiB", () => {
  it("refuses it before reading it: exit 2, one line naming the size, the bound and what to do", async () => {
    expect(MAX_PACT_BYTES).toBe(256 * MiB);
    const file = await sparseFile("over.json", MAX_PACT_BYTES + 1);
    // Its access time before its change: a read sets it to now (relatime, Linux's default), a stat does not. Whether it
    // was read shows so, where memory would not: the workers share one process. On a noatime mount this shows nothing.
    await utimes(file, 0, new Date());
    const run = await check(file);
    expect(run.code).toBe(2);
    expect(run.said).toEqual([
      `${NAME} pact check: cannot start: the pact ${JSON.stringify(file)} is ${MAX_PACT_BYTES + 1} bytes, over the ${MAX_PACT_BYTES} (256 MiB) a pact is read whole up to: split its interactions over smaller pacts and check each`,
    ]);
    expect((await stat(file)).atimeMs, "the pact was read").toBe(0);
  });

  // Read whole (about a second and 512 MiB for a moment): the size is no fault, the NUL after `{` is.
  it("reads one of exactly 256 MiB, and refuses it as JSON, not for its size", { timeout: 30_000 }, async () => {
    const file = await sparseFile("at.json", MAX_PACT_BYTES);
    const run = await check(file);
    expect(run.code).toBe(2);
    expect(run.said).toEqual([expect.stringContaining(`${NAME} pact check: cannot start: ${file}:1:2: not JSON:`)]);
    await rm(file);
  });
});

/** A pact of `count` interactions that each answer 500, each one finding (not_a_server_error). */
async function brokenPact(count: number): Promise<string> {
  const file = path.join(scratch, `broken-${count}.json`);
  const interactions = Array.from({ length: count }, (_, n) => ({
    description: `a server error ${n + 1}`,
    request: {
      method: "GET",
      path: "/studio/v1/library/files/doc-1",
      headers: { Authorization: "Bearer consumer-token" },
    },
    response: { status: 500 },
  }));
  await writeFile(
    file,
    JSON.stringify({ consumer: { name: "many" }, provider: { name: "file-library" }, interactions }),
  );
  return file;
}

interface Summary {
  verdict: string;
  interactions: Array<{ fits: boolean }>;
  findings: Array<{ index: number; check: string }>;
  findingsLeftOut: number;
}

/** What the three reports of a run say of its findings. */
async function reportsOf(reportDir: string) {
  const read = (name: string) => readFile(path.join(reportDir, name), "utf8");
  const summary = JSON.parse(await read("pact-summary.json")) as Summary;
  const markdown = await read("pact-summary.md");
  const junit = await read("pact-junit.xml");
  return {
    summary,
    markdown,
    markdownFindings: markdown.split("\n").filter((line) => line.includes("| not_a_server_error |")).length,
    junit,
    // Each interaction's case: whether it holds a failure element (a case without one is a pass to JUnit readers).
    failedCases: junit.split("<testcase ").filter((c) => c.includes("<failure ")).length,
    passedCases: junit.split("<testcase ").filter((c) => c.startsWith("classname") && !c.includes("<failure ")).length,
  };
}

describe("pact check of a pact with more findings than the reports list", () => {
  it("lists the first 1,000 in each report and counts the rest; exit 1", { timeout: 60_000 }, async () => {
    expect(FINDINGS_KEPT).toBe(1000);
    const run = await check(await brokenPact(1001));
    expect(run.code).toBe(1);
    const reports = await reportsOf(run.reportDir);
    expect(reports.summary.verdict).toBe("failed");
    expect(reports.summary.interactions.filter((i) => !i.fits)).toHaveLength(1001);
    expect(reports.summary.findings).toHaveLength(1000);
    expect(reports.summary.findings.map((f) => f.index)).toEqual([...Array(1000).keys()]);
    expect(reports.summary.findingsLeftOut).toBe(1);
    expect(reports.markdownFindings).toBe(1000);
    expect(reports.markdown).toContain("\n\n1 further finding(s) counted, not listed.\n");
    // 1,001 interactions and the case that counts the rest, each failed with a failure element: 1,000 findings listed,
    // the 1,001st interaction pointing at the count.
    expect(reports.junit).toContain('<testsuites name="file-library-contract pact" tests="1002" failures="1002"');
    expect([reports.failedCases, reports.passedCases]).toEqual([1002, 0]);
    expect(
      reports.junit.match(/ fits the spec" time="0\.000">\n {6}<failure message="response status: not_a_server_error/g),
    ).toHaveLength(1000);
    expect(reports.junit).toContain(
      `name="a server error 1001 fits the spec" time="0.000">\n      <failure message="its findings fall past the 1000 the reports list: counted in &quot;left out&quot;, not listed"`,
    );
    expect(reports.junit).toContain(
      '<testcase classname="left out" name="findings counted, not listed" time="0.000">\n      <failure message="1 further finding(s) past the 1000 the reports list: counted, not listed"',
    );
    expect(run.said.filter((line) => line.includes(" FINDING "))).toHaveLength(50);
    expect(run.said.slice(50)).toEqual([
      `${NAME} pact check: 951 further finding(s): the reports list 950 of them and count the other 1`,
      expect.stringContaining(
        `${NAME} pact check: failed: 1001 interaction(s) of many, 0 fit the spec, 1001 finding(s); reports in`,
      ),
    ]);
  });

  it("lists all of exactly 1,000, with no count of further ones", { timeout: 60_000 }, async () => {
    const run = await check(await brokenPact(1000));
    expect(run.code).toBe(1);
    const reports = await reportsOf(run.reportDir);
    expect(reports.summary.findings).toHaveLength(1000);
    expect(reports.summary.findingsLeftOut).toBe(0);
    expect(reports.markdownFindings).toBe(1000);
    expect(reports.markdown).not.toContain("further finding");
    expect(reports.junit).toContain('<testsuites name="file-library-contract pact" tests="1000" failures="1000"');
    expect(reports.junit).not.toContain("left out");
    expect(reports.junit).not.toContain("fall past");
    expect(run.said.slice(50)).toEqual([
      `${NAME} pact check: 950 further finding(s) in the reports`,
      expect.stringContaining(`${NAME} pact check: failed: 1000 interaction(s) of many`),
    ]);
  });
});
