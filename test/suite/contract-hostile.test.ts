// covers: contract-tests/checks/body-within-limit.ts, contract-tests/http/transport.ts, contract-tests/run/run-checks.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { exitCodeOf, startChild } from "../../lib/process.ts";
import { fromRoot, repoRoot } from "../../scripts/lib/paths.ts";
import { hostileServer, type HostileServer } from "../support/hostile-server.ts";
import { sampleTreePeak } from "../support/processes.ts";

// Whatever the server sends, a live run's whole process tree (the CLI and vitest's workers) stays within this.
const BOUND_MB = 500;

let server: HostileServer;
let reports: string;
beforeAll(async () => {
  server = await hostileServer();
  reports = await mkdtemp(path.join(os.tmpdir(), "file-library-hostile-"));
});
afterAll(async () => {
  await server.close();
  await rm(reports, { recursive: true, force: true });
});

/** Runs the suite's CLI against one kind of hostile answer; resolves with its exit code, output and peak memory. */
async function suiteAgainst(kind: string): Promise<{ code: number; output: string; peakMb: number }> {
  const child = startChild(
    process.execPath,
    ["--import", "tsx", fromRoot("contract-tests/cli.ts"), "--base-url", `${server.origin}/${kind}`, "--file-id", "f1"],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        FILE_LIBRARY_API_KEY: "hostile-test-key",
        FILE_LIBRARY_REPORT_DIR: path.join(reports, kind),
        FILE_LIBRARY_WRITE_CHECKS: "",
        FILE_LIBRARY_MAX_REQUESTS: "40",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const sampler = sampleTreePeak(child.pid!);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await exitCodeOf(child);
  return { code, output, peakMb: await sampler.stop() };
}

describe(`the live suite against hostile servers: a named violation, no crash, its process tree within ${BOUND_MB} MB`, {
  timeout: 180_000,
}, () => {
  it.each([
    ["an endless metadata body", "huge-body"],
    ["a gzip bomb", "gzip-bomb"],
    ["an endless download URL", "huge-url"],
  ])("%s", async (_, kind) => {
    const { code, output, peakMb } = await suiteAgainst(kind);
    expect(code, output.slice(-3000)).toBe(1);
    expect(output).toMatch(/body_within_limit: the answer's body is over 1048576 bytes/);
    expect(output, "a stack trace instead of a verdict").not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m);
    expect(output).not.toMatch(/Maximum call stack size exceeded/);
    expect(peakMb).toBeLessThan(BOUND_MB);
    console.log(`${kind}: exit ${code}, process tree peak ${peakMb.toFixed(0)} MB`);
  });
});
