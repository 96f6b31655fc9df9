// covers: scripts/contract.ts, contract-tests/http/rate-limits.ts
// `npm run contract` as a process against a server that rate-limits past the cap per run: its exit code and its one
// line. A process of its own, so in the end-to-end tier (vitest.e2e.config.ts); the caps' verdicts in this process are
// in test/suite/contract-rate-limits.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitCodeOf } from "../../lib/process.ts";
import { liveEnvironment, SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { startScript } from "../support/processes.ts";
import { alwaysRateLimited } from "../support/rate-limited-server.ts";
import { sandbox } from "../support/sandbox.ts";

describe("a server that rate-limits past the cap per run: npm run contract cannot finish", { timeout: 120_000 }, () => {
  let endless: Awaited<ReturnType<typeof alwaysRateLimited>>;
  let upstream: Awaited<ReturnType<typeof sandbox>>;
  beforeAll(async () => {
    upstream = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
    endless = await alwaysRateLimited("1", upstream.baseUrl);
  });
  afterAll(() => Promise.all([endless.close(), upstream.close()]));

  it("waits past the cap per run end it with exit 2 and one line saying so", async () => {
    const child = startScript("scripts/contract.ts", [], {
      ...process.env,
      ...liveEnvironment(endless.baseUrl, { maxTotalWaitMs: 2500, writeChecks: false }),
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exitCodeOf(child)).toBe(2);
    const ours = stderr.split("\n").filter((line) => line.startsWith("contract: "));
    expect(ours).toEqual([
      expect.stringMatching(
        /^contract: cannot finish: the server rate-limited the run: waiting out its 429s took 2\.0 s, and the next wait of 1\.0 s would pass the cap of 2\.5 s per run \(FILE_LIBRARY_MAX_TOTAL_WAIT_MS raises it\)\. Pace the run with --rate-limit N\/s, or raise the cap\. \d+ selected checks? did not run: [a-zA-Z_, ]+$/,
      ),
    ]);
  });
});
