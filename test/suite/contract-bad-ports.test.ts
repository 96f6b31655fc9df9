// covers: contract-tests/http/dispatch.ts, contract-tests/http/transport.ts, contract-tests/runner/preflight.ts, contract-tests/proxy/forward.ts, contract-tests/recording/replay.ts
// fetch refuses the Fetch standard's "bad ports" (a browser must); the suite is not a browser, and reaches any port.
import { mkdtemp } from "node:fs/promises";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxy } from "../../contract-tests/index.ts";
import { defaultSpecFile } from "../../contract-tests/locations.ts";
import { replayRecording } from "../../contract-tests/recording/replay.ts";
import { loadSuiteSpec } from "../../contract-tests/run/spec.ts";
import { liveOptions, runContractSuite, SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { FILES, sandbox, SANDBOX_KEY } from "../support/sandbox.ts";

// Bad ports (fetch.spec.whatwg.org, "port blocking"): the first one free on this machine is taken.
const BAD_PORTS = [10080, 6000, 5060, 4190, 6665, 6666, 6667, 6668, 6669, 6697];

let sb: Awaited<ReturnType<typeof sandbox>>;
beforeAll(async () => {
  for (const port of BAD_PORTS) {
    try {
      sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, port, host: "127.0.0.1" });
      return;
    } catch (error) {
      if (!/in use/.test((error as Error).message)) throw error;
    }
  }
  throw new Error(`every bad port is in use here: ${BAD_PORTS.join(", ")}`);
});
afterAll(() => sb?.close());

/** Sends GET through node:http (which knows no bad port) and resolves with the status. */
const statusOf = (url: string) =>
  new Promise<number>((resolve, reject) =>
    request(
      url,
      { agent: false, headers: { authorization: `Bearer ${SANDBOX_KEY}` } },
      (res) => (res.resume(), resolve(res.statusCode!)),
    )
      .on("error", reject)
      .end(),
  );

describe("a correct server on a port fetch refuses", { timeout: 120_000 }, () => {
  it("passes, read-only, every check reaching it (the signed URL on that port included)", async () => {
    await expect(fetch(`${sb.baseUrl}${FILES}/doc-1`)).rejects.toThrow();
    const run = await runContractSuite(liveOptions(sb.baseUrl));
    expect(run.exitCode, run.output).toBe(0);
    expect(run.summary.totals.failed).toBe(0);
    expect(run.output).not.toMatch(/bad port/);
    expect(run.summary.checks.find((c) => c.check === "metadata_size_matches_content")?.state).toBe("passed");
  });

  it("a refused key on that port still stops the run at its start, exit 2", async () => {
    const run = await runContractSuite(liveOptions(sb.baseUrl, { apiKey: "a-rotated-key-0000" }));
    expect(run.exitCode, run.output).toBe(2);
    expect(run.summary.stopped?.reason).toMatch(/^the server refused FILE_LIBRARY_API_KEY \(HTTP 401/);
  });

  it("is reached by the validating proxy, and by the replay of what it recorded", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "file-library-bad-port-"));
    const recording = path.join(dir, "traffic.jsonl");
    const proxy = await startProxy({
      upstream: sb.baseUrl,
      reportDir: dir,
      record: recording,
      env: { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
      say: () => {},
    });
    const status = await statusOf(`${proxy.url}${FILES}/doc-1`);
    const { exitCode } = await proxy.stop();
    expect([status, exitCode]).toEqual([200, 0]);
    const replayed = await replayRecording({
      file: recording,
      baseUrl: sb.baseUrl,
      apiKey: SANDBOX_KEY,
      writeChecks: false,
      maxRequests: 10,
      spec: loadSuiteSpec(defaultSpecFile),
      limits: { maxResponseMs: 5_000, maxResponseBytes: 1_048_576, requestTimeoutMs: 10_000 },
      say: () => {},
    });
    expect([replayed.exitCode, replayed.replayed]).toEqual([0, 1]);
  });
});
