import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startSuite } from "../../contract-tests/run-suite.ts";
import { compiledSuiteConfig } from "../../contract-tests/runner/compiled-suite.ts";
import { runCommand } from "../../lib/process.ts";
import { fromRoot, repoRoot } from "../../scripts/lib/paths.ts";
import { environmentWithoutSettings } from "../support/contract-suite.ts";

// Ajv's modules are CommonJS: once loaded, from ESM too, they are in require.cache.
const AJV_COUNT = `import { createRequire } from "node:module";
for (const module of JSON.parse(process.env.MODULES)) await import(module);
const cache = Object.keys(createRequire(import.meta.url).cache);
console.log(cache.filter((file) => /[\\/]node_modules[\\/]ajv[\\/]/.test(file)).length);`;

/** How many of Ajv's modules a fresh Node process has loaded once it has imported `modules` (through tsx, as the repo runs). */
async function ajvModulesLoadedBy(modules: string[]): Promise<number> {
  const run = await runCommand(process.execPath, ["--import", "tsx", "--input-type=module", "-e", AJV_COUNT], {
    cwd: repoRoot,
    env: { ...process.env, MODULES: JSON.stringify(modules) },
  });
  expect(run.code, run.output).toBe(0);
  return Number(run.output.trim().split("\n").at(-1));
}

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

describe("what vitest's own process loads of the suite", () => {
  it("the global setup and the reporter read the spec without Ajv, as source and compiled; the workers' spec module loads it", { timeout: 60_000 }, async () => {
    const config = await compiledSuiteConfig();
    expect(config, "the suite compiles").toBeDefined();
    const compiled = (file: string) => path.join(path.dirname(config!), "run", file);
    const [source, built, workers] = await Promise.all([
      ajvModulesLoadedBy([fromRoot("contract-tests/run/global-setup.ts"), fromRoot("contract-tests/run/summary-reporter.ts")]),
      ajvModulesLoadedBy([compiled("global-setup.js"), compiled("summary-reporter.js")]),
      // The control: the count sees Ajv where it loads.
      ajvModulesLoadedBy([fromRoot("contract-tests/run/spec.ts")]),
    ]);
    expect({ source, built }).toEqual({ source: 0, built: 0 });
    expect(workers).toBeGreaterThan(10);
  });
});
