// covers: src/redact.ts, contract-tests/http/secret-echo.ts, contract-tests/http/exchange.ts, contract-tests/run/evidence.ts, contract-tests/proxy/judge-traffic.ts
// The key's spelling never changes a verdict: checks judge the bytes as received, and redaction only touches what is
// printed or written, where the key could really be (docs/decisions.md, D29).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { startProxy } from "../../contract-tests/index.ts";
import { REDACTED } from "../../src/redact.ts";
import { createFileLibraryClient } from "../../src/index.ts";
import {
  failedChecks,
  FILE_ID,
  liveOptions,
  runContractSuite,
  SANDBOX_FIXTURES,
  type ContractRun,
} from "../support/contract-suite.ts";
import { closedPort } from "../support/closed-port.ts";
import { sandbox, SANDBOX_KEY, storedMetadata } from "../support/sandbox.ts";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";

// Words a real key is rarely made of, and which the suite, its reports and the sandbox's answers are full of.
const WORD_KEYS = ["test", "dev", "file", "k1", "application"];

/** Everything a run printed or wrote. */
async function textsOf(run: ContractRun): Promise<string> {
  const reports = await readdir(run.reportDir);
  return [run.output, ...(await Promise.all(reports.map((f) => readFile(path.join(run.reportDir, f), "utf8"))))].join(
    "\n",
  );
}

/** How often `word` stands as a word of its own in `text` (where it could be a key), and how often anything was redacted. */
const count = (text: string, word: string) => ({
  asWord: text.split(new RegExp(`(?<![A-Za-z0-9_])${word}(?![A-Za-z0-9_])`)).length - 1,
  redacted: text.split(REDACTED).length - 1,
});

/** A read-only run against a sandbox whose key is `key`. */
async function runWithKey(key: string, extra: { writeChecks?: boolean } = {}) {
  const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: key });
  try {
    const fileBefore = await storedMetadata(sb.baseUrl, FILE_ID, key);
    const run = await runContractSuite({ ...liveOptions(sb.baseUrl), apiKey: key, ...extra });
    return { run, texts: await textsOf(run), fileBefore, fileAfter: await storedMetadata(sb.baseUrl, FILE_ID, key) };
  } finally {
    await sb.close();
  }
}

describe.concurrent("a correct server, whatever the key is spelt like", { timeout: 120_000 }, () => {
  let control: Awaited<ReturnType<typeof runWithKey>>;
  beforeAll(async () => {
    control = await runWithKey(SANDBOX_KEY);
    expect(control.run.exitCode, control.run.output).toBe(0);
  });

  it.each(WORD_KEYS)(
    "passes read-only with the key %j, as with a distinctive one, and prints the key nowhere",
    async (key) => {
      const { run, texts } = await runWithKey(key);
      expect(failedChecks(run), run.output).toEqual([]);
      expect(run.exitCode).toBe(0);
      expect(run.summary.totals).toMatchObject({
        failed: 0,
        warnings: control.run.summary.totals.warnings,
        passed: control.run.summary.totals.passed,
      });
      // The key shows up as a word no more often than in the same run with another key (file names such as
      // getFile.contract.test.js hold "test"), and nothing more is redacted: no "crea[REDACTED]d_at", no "con[REDACTED]nt".
      const seen = count(texts, key);
      const inControl = count(control.texts, key);
      expect(seen.asWord).toBe(inControl.asWord);
      expect(seen.redacted).toBe(inControl.redacted);
    },
  );

  it('passes with write checks with the key "test", and leaves the file as it found it', async () => {
    const { run, fileBefore, fileAfter } = await runWithKey("test", { writeChecks: true });
    expect(failedChecks(run), run.output).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.summary.totals.skipped).toBe(0);
    expect(fileAfter).toEqual(fileBefore);
  });
});

describe('the proxy and the client with the key "test" or "file"', { timeout: 60_000 }, () => {
  let sb: Awaited<ReturnType<typeof sandbox>>;
  afterAll(() => sb?.close());

  it("the proxy finds nothing in two correct reads, and names no key", async () => {
    sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: "test" });
    const lines: string[] = [];
    const proxy = await startProxy({
      upstream: sb.baseUrl,
      reportDir: await mkdtemp(path.join(os.tmpdir(), "file-library-keys-")),
      env: { FILE_LIBRARY_API_KEY: "test" },
      say: (line) => lines.push(line),
    });
    const files = createFileLibraryClient({ baseUrl: proxy.url, apiKey: "test", maxRetries: 0 }).files;
    await files.get(FILE_ID);
    await files.downloadUrl(FILE_ID);
    const result = await proxy.stop();
    expect(result.summary.findings).toEqual([]);
    expect(result.exitCode).toBe(0);
    expect(lines.join("\n")).not.toContain(REDACTED);
  });

  it("the client's messages keep the words the key is found in", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const ids = createFileLibraryClient({ baseUrl, apiKey: "file", maxRetries: 0, timeoutMs: 2_000 }).files;
    const error = (await ids.get("file_1").catch((e: unknown) => e)) as Error;
    expect(error.message).toContain("/studio/v1/library/files/file_1");
    expect(error.message).not.toContain(REDACTED);
    const short = createFileLibraryClient({ baseUrl, apiKey: "k", maxRetries: 0, timeoutMs: 2_000 }).files;
    const other = (await short.get("f").catch((e: unknown) => e)) as Error;
    expect(other.message).toMatch(/Check the base URL/);
    expect(other.message).not.toContain(REDACTED);
  });
});
