import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSuite } from "../../contract-tests/run-suite.ts";
import { environmentWithoutSettings } from "../support/contract-suite.ts";

describe("the suite's global setup, with a runner that starts the suite before its target", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("a runner that then starts no mock and names no live server: the run could not start (exit 2), and says so, without a request", { timeout: 60_000 }, async () => {
    const reportDir = await mkdtemp(path.join(os.tmpdir(), "file-library-global-setup-"));
    dirs.push(reportDir);
    const run = await startSuite(
      { env: environmentWithoutSettings(), reportDir },
      { spec: Promise.resolve(), target: Promise.resolve({}), release: Promise.resolve() },
    );
    // The run could not start: exit 2, the reason in the summary and on a STOPPED line, not a clean "0 failed".
    expect(run.exitCode).toBe(2);
    const reason = "the suite itself failed: No server to check: the runner started no mock and named no live server.";
    expect(run.summary?.stopped).toEqual({ reason });
    expect(run.output).toContain(`STOPPED ${reason}`);
    expect(run.output).toContain("(the run could not finish)");
    expect(run.summary?.totals).toMatchObject({ passed: 0, failed: 0, requests: 0 });
  });
});
