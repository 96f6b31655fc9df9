// covers: contract-tests/index.ts, contract-tests/run-suite.ts
import { afterEach, describe, expect, it } from "vitest";
import { exitCodeOf, waitForOutput } from "../../lib/process.ts";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { childrenOf, commandLineOf, startScript } from "../support/processes.ts";
import { sandbox, SANDBOX_KEY } from "../support/sandbox.ts";

let stopSandbox: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stopSandbox?.();
  stopSandbox = undefined;
});

/** Starts the host program against a sandbox whose every answer takes 120 ms, so the run is still going when the signal comes. */
async function startHost(mode: "abort" | "exit") {
  const sb = await sandbox({ fixturesFile: fromRoot("test/fixtures/sandbox-files.json"), fault: "slow-answers" });
  stopSandbox = () => sb.close();
  const host = startScript("test/fixtures/suite-host.ts", [mode], {
    ...process.env,
    FILE_LIBRARY_BASE_URL: sb.baseUrl,
    FILE_LIBRARY_API_KEY: SANDBOX_KEY,
    FILE_LIBRARY_FILE_ID: "doc-1",
    FILE_LIBRARY_WRITE_CHECKS: "",
  });
  let output = "";
  host.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitForOutput(host, /contract: seed \d+/, 60_000);
  // The suite runs in the host: its only child is tsx's esbuild service, never a node running the suite.
  const children = await Promise.all(
    (await childrenOf(host.pid!)).map(async (pid) => ({ pid, command: await commandLineOf(pid) })),
  );
  expect(
    children.filter((c) => !c.command.includes("esbuild")),
    "runSuite runs the suite in its caller's process",
  ).toEqual([]);
  return { host, output: () => output };
}

describe("runSuite in a program of its own: the host keeps its signal handling", { timeout: 90_000 }, () => {
  it("a host that aborts the run from its SIGTERM handler: its handler runs, runSuite rejects, no summary follows", async () => {
    const { host, output } = await startHost("abort");
    host.kill("SIGTERM");
    expect(await exitCodeOf(host)).toBe(0);
    expect(output()).toContain("host: my SIGTERM handler ran\n");
    expect(output()).toContain("host: the suite stopped (AbortError)\n");
    expect(output()).toContain("host: shut down my own way\n");
    expect(output()).not.toMatch(/contract: \d+ passed/);
  });

  it("a host that exits from its SIGTERM handler: it exits with its own code, the run with it", async () => {
    const { host, output } = await startHost("exit");
    host.kill("SIGTERM");
    expect(await exitCodeOf(host)).toBe(0);
    expect(output()).toContain("host: my SIGTERM handler ran\n");
    expect(output()).not.toMatch(/contract: \d+ passed/);
  });
});
