// covers: scripts/contract.ts, README.md
// From a clone, the package CLI's commands run as the README says: `npm run contract -- proxy …`,
// `npm run contract -- replay …` and `npm run contract -- pact …` hand over to them (where the suite's parser said "Unexpected argument"), the `--`
// before the app's command included. Through npm, as a user types them; only --help and settings refused at the start:
// nothing listens, nothing is sent.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { exitCodeOf, startChild } from "../../lib/process.ts";
import { fromRoot, repoRoot } from "../../scripts/lib/paths.ts";

/** `npm run -s contract -- ARGS` in the repository, stdout and stderr apart. */
async function npmRunContract(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = startChild("npm", ["run", "-s", "contract", "--", ...args], {
    cwd: repoRoot,
    env: process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { code: await exitCodeOf(child), stdout, stderr };
}

describe("npm run contract -- proxy|replay, the package CLI's commands from a clone", () => {
  it("the README says how to run them", () => {
    const readme = readFileSync(fromRoot("README.md"), "utf8");
    expect(readme).toContain("`npm run contract -- proxy");
    expect(readme).toContain("`npm run contract -- replay");
    expect(readme).toContain("`npm run contract -- pact");
  });

  it.concurrent.each([
    ["proxy", /^Usage: npm run contract -- proxy --upstream URL /],
    ["replay", /^Usage: npm run contract -- replay FILE --base-url URL /],
    ["pact", /^Usage: npm run contract -- pact export RECORDING --consumer NAME /],
  ] as const)("-- %s --help prints that command's usage, exit 0", { timeout: 60_000 }, async (command, usage) => {
    const { code, stdout, stderr } = await npmRunContract([command, "--help"]);
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toMatch(usage);
    expect(stderr).toBe("");
  });

  it("-- proxy … -- reaches the proxy with its own --: nothing after it is its one line, exit 2", {
    timeout: 60_000,
  }, async () => {
    const { code, stdout, stderr } = await npmRunContract(["proxy", "--upstream", "http://127.0.0.1:9", "--"]);
    expect(code, stdout + stderr).toBe(2);
    expect(stderr.trim()).toBe(
      "npm run contract -- proxy: cannot start: nothing after --: give the command to run through the proxy, or leave out --",
    );
    expect(stdout).toBe("");
  });
});
