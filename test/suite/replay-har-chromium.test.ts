// covers: contract-tests/recording/read-recording.ts, contract-tests/runner/replay-command.ts
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runReplayCommand } from "../../contract-tests/runner/replay-command.ts";
import { browserFor } from "../support/browser.ts";
import { chromiumHar } from "../support/chromium-har.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { sandbox, SANDBOX_KEY } from "../support/sandbox.ts";

const chrome = browserFor("test/suite/replay-har-chromium.test.ts");

let scratch: string;
beforeAll(async () => (scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-har-"))));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Runs the replay command in this process; its lines and exit code. */
async function replay(args: string[]) {
  const output: string[] = [];
  const err = vi.spyOn(console, "error").mockImplementation((line: string) => void output.push(line));
  try {
    const code = await runReplayCommand(
      [...args, "--report-dir", path.join(scratch, "reports")],
      "file-library-contract",
      { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
    );
    return { code, output: output.join("\n") };
  } finally {
    err.mockRestore();
  }
}

describe.skipIf(!chrome)("a HAR made by Chromium", { timeout: 60_000 }, () => {
  it("of a page that uses the client replays: exit 0 against the sandbox, exit 1 against a fault, the page and CORS preflights left out", async () => {
    const har = await chromiumHar(scratch, chrome!);
    for (const [fault, code, said] of [
      [undefined, 0, /passed: 3 exchanges, 0 duplicates, 3 replayed, 0 break\(s\); reports/],
      [
        "metadata-size-as-string",
        1,
        /BREAK \(consumer\) line \d+: GET \/studio\/v1\/library\/files\/doc-1 as_the_app_saw_it: \$\.size was a number/,
      ],
    ] as const) {
      const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, ...(fault ? { fault } : {}) });
      try {
        const run = await replay([har, "--base-url", sb.baseUrl]);
        expect(run.code, run.output).toBe(code);
        expect(run.output).toMatch(said);
        expect(run.output).not.toContain(SANDBOX_KEY);
      } finally {
        await sb.close();
      }
    }
  });
});
