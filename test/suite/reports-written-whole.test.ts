// covers: contract-tests/report/write-whole.ts, contract-tests/proxy/proxy-reports.ts, contract-tests/runner/pact-command.ts, contract-tests/pact/pact-reports.ts, contract-tests/recording/replay-reports.ts, contract-tests/run/run-summary.ts, contract-tests/run-suite.ts
// docs/decisions.md, D51, read from real runs: every report is written beside its place and renamed over it, so a
// report path that is a symbolic link is replaced by the file, not written through. Each report starts here as a link
// to a file of the test's own: a writer that writes in place changes that file; one that renames leaves it as it was.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runSuite, startProxy } from "../../contract-tests/index.ts";
import { runPactCommand } from "../../contract-tests/runner/pact-command.ts";
import { runReplayCommand } from "../../contract-tests/runner/replay-command.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { FILES, sandbox, SANDBOX_KEY } from "../support/sandbox.ts";

const NAME = "file-library-contract";
const KEPT = "the link's own file, which no report may be written into\n";
let scratch: string;
let sb: Awaited<ReturnType<typeof sandbox>>;
let recording: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-written-whole-"));
  sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
  recording = path.join(scratch, "app.jsonl");
});
afterAll(async () => {
  await sb.close();
  await rm(scratch, { recursive: true, force: true });
});

/** A report folder whose reports are each a symbolic link to a file of its own, outside the folder. */
async function linkedReports(name: string, reports: string[]): Promise<string> {
  const dir = path.join(scratch, name);
  await mkdir(path.join(dir, "..", `${name}-targets`), { recursive: true });
  await mkdir(dir, { recursive: true });
  for (const report of reports) {
    const target = path.join(dir, "..", `${name}-targets`, report);
    await writeFile(target, KEPT);
    await symlink(target, path.join(dir, report));
  }
  return dir;
}

/** Each report is a file of its own now, with text of the run's; what the links pointed at is as it was; nothing is left beside them. */
async function expectWrittenWhole(dir: string, reports: string[]) {
  for (const report of reports) {
    const info = await lstat(path.join(dir, report));
    expect(info.isFile(), `${report} was written through its link`).toBe(true);
    expect(await readFile(path.join(dir, report), "utf8")).not.toBe(KEPT);
    expect(await readFile(path.join(dir, "..", `${path.basename(dir)}-targets`, report), "utf8"), report).toBe(KEPT);
  }
  expect((await readdir(dir)).filter((file) => !reports.includes(file))).toEqual([]);
}

/** Runs a command's entry in this process, its console kept quiet; its exit code. */
async function quietly(run: () => Promise<number>): Promise<number> {
  const spies = [vi.spyOn(console, "error"), vi.spyOn(console, "log")].map((spy) => spy.mockImplementation(() => {}));
  try {
    return await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describe("every report is written whole, beside its place, then renamed over it (D51)", { timeout: 60_000 }, () => {
  it("the proxy's three reports", async () => {
    const reports = ["proxy-junit.xml", "proxy-summary.json", "proxy-summary.md"];
    const reportDir = await linkedReports("proxy", reports);
    const proxy = await startProxy({
      upstream: sb.baseUrl,
      reportDir,
      record: recording,
      env: { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
      say: () => {},
    });
    const answer = await fetch(`${proxy.url}${FILES}/doc-1`, { headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
    expect((await proxy.stop()).exitCode).toBe(0);
    await expectWrittenWhole(reportDir, reports);
  });

  it("the pact `pact export` writes, and `pact check`'s three reports", async () => {
    const pactDir = await linkedReports("pact", ["app.json"]);
    const pact = path.join(pactDir, "app.json");
    const exported = ["export", recording, "--consumer", "app", "-o", pact];
    expect(await quietly(() => runPactCommand(exported, NAME, { FILE_LIBRARY_API_KEY: SANDBOX_KEY }))).toBe(0);
    await expectWrittenWhole(pactDir, ["app.json"]);
    const reports = ["pact-junit.xml", "pact-summary.json", "pact-summary.md"];
    const reportDir = await linkedReports("pact-check", reports);
    expect(await quietly(() => runPactCommand(["check", pact, "--report-dir", reportDir], NAME, {}))).toBe(0);
    await expectWrittenWhole(reportDir, reports);
  });

  it("replay's three reports", async () => {
    const reports = ["replay-junit.xml", "replay-summary.json", "replay-summary.md"];
    const reportDir = await linkedReports("replay", reports);
    const args = [recording, "--base-url", sb.baseUrl, "--report-dir", reportDir];
    expect(await quietly(() => runReplayCommand(args, NAME, { FILE_LIBRARY_API_KEY: SANDBOX_KEY }))).toBe(0);
    await expectWrittenWhole(reportDir, reports);
  });

  it("the suite's four reports, and the two of a run that could not start", async () => {
    const reports = ["contract-junit.xml", "contract-summary.json", "contract-coverage.json", "contract-coverage.md"];
    const reportDir = await linkedReports("suite", reports);
    const settings = { env: {}, baseUrl: sb.baseUrl, apiKey: SANDBOX_KEY, fileId: "doc-1", reportDir };
    expect((await runSuite({ ...settings, checks: ["auth_required"] })).exitCode).toBe(0);
    await expectWrittenWhole(reportDir, reports);
    const refused = ["contract-summary.json", "contract-coverage.md"];
    const refusedDir = await linkedReports("suite-refused", refused);
    expect((await runSuite({ ...settings, reportDir: refusedDir, maxRequests: 0 })).exitCode).toBe(2);
    await expectWrittenWhole(refusedDir, refused);
  });
});
