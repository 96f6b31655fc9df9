// covers: contract-tests/http/curl.ts, contract-tests/inputs/keys.ts
// A failure's curl command, run in a shell against the sandbox that failed: it reproduces the failure with the key taken
// from the environment. curl is another process, so these runs are in the end-to-end tier (vitest.e2e.config.ts); the
// faults' verdicts themselves are in test/suite/contract-live.test.ts.
import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { CheckName } from "../../contract-tests/checks/catalogue.ts";
import type { FaultName } from "../../sandbox/testing/index.ts";
import {
  liveOptions,
  runContractSuite,
  SANDBOX_FIXTURES as fixturesFile,
  type ContractRun,
} from "../support/contract-suite.ts";
import { sandbox, SANDBOX_KEY } from "../support/sandbox.ts";

/**
 * Runs one check against a sandbox with a fault, then the curl command its failure printed, with the key only in
 * the environment; resolves with the command and what the sandbox answered it.
 */
async function replayFailure(
  fault: FaultName,
  check: CheckName,
): Promise<{ run: ContractRun; curl: string; answer: string }> {
  const sb = await sandbox({ fixturesFile, fault });
  try {
    const run = await runContractSuite(liveOptions(sb.baseUrl, { checks: [check] }));
    const curl = run.summary.checks.find((c) => c.check === check && c.state === "failed")!.failures[0]!.evidence!.curl;
    // Asynchronously: the sandbox answering it runs in this very process.
    const { stdout: answer } = await promisify(execFile)("sh", ["-c", curl], {
      env: { ...process.env, FILE_LIBRARY_API_KEY: SANDBOX_KEY },
    });
    return { run, curl, answer };
  } finally {
    await sb.close();
  }
}

describe.concurrent("a failure's curl command reproduces it, the key (or its near miss) made from $FILE_LIBRARY_API_KEY", {
  timeout: 120_000,
}, () => {
  it("with its curl command, which sends the same request with the key from the environment", async () => {
    const { run, curl, answer } = await replayFailure("unknown-id-404", "unknown_id_rejected");
    expect(run.output).toContain(`\n        reproduce: ${curl}\n`);
    expect(curl).toContain('"Authorization: Bearer $FILE_LIBRARY_API_KEY"');
    expect(curl).not.toContain(SANDBOX_KEY);
    expect(answer).toMatch(/^HTTP\/1\.1 404/);
  });

  it("a near-miss failure's curl makes the near miss from $FILE_LIBRARY_API_KEY, and reproduces the failure", async () => {
    const { curl, answer } = await replayFailure("key-checked-in-part", "auth_required");
    expect(curl).toContain("FILE_LIBRARY_API_KEY");
    expect(curl).not.toContain(SANDBOX_KEY.slice(0, -1));
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });

  it("a server that takes any prefix of the key fails on the truncated key, whose curl cuts $FILE_LIBRARY_API_KEY and reproduces it", async () => {
    const { run, curl, answer } = await replayFailure("key-prefix-accepted", "auth_required");
    expect(run.output).toContain("with the key's last character removed");
    expect(curl).toContain('"Authorization: Bearer ${FILE_LIBRARY_API_KEY%?}"');
    expect(curl).not.toContain(SANDBOX_KEY.slice(0, Math.ceil(SANDBOX_KEY.length / 2)));
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
  });
});
