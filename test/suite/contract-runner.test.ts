// covers: contract-tests/cli.ts, contract-tests/runner/, contract-tests/locations.ts, contract-tests/report/shapes.ts, contract-tests/report/summary-format.ts, contract-tests/run/run-summary.ts, contract-tests/report/coverage.ts
import { afterEach, describe, expect, it, vi } from "vitest";
import { runContractCommand, type RepoPreparation } from "../../contract-tests/runner/command.ts";
import { closedPort } from "../support/closed-port.ts";
import { exitCodeOf } from "../../lib/process.ts";
import { startScript } from "../support/processes.ts";

/** Runs `npm run contract` (the script itself) and collects its exit code and output. */
async function contract(args: string[], env: Record<string, string | undefined>) {
  const child = startScript("scripts/contract.ts", args, { ...process.env, FILE_LIBRARY_BASE_URL: "", ...env });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk));
  const code = await exitCodeOf(child);
  return { code, stdout, stderr };
}

const live = { FILE_LIBRARY_BASE_URL: "http://127.0.0.1:9", FILE_LIBRARY_API_KEY: "k", FILE_LIBRARY_FILE_ID: "f" };

describe("npm run contract: a run that cannot start exits 2 with one line saying why", { timeout: 30_000 }, () => {
  it.each([
    ["no file id", { ...live, FILE_LIBRARY_FILE_ID: undefined }, [], /FILE_LIBRARY_FILE_ID is not set/],
    ["no key", { ...live, FILE_LIBRARY_API_KEY: undefined }, [], /FILE_LIBRARY_API_KEY is not set/],
    ["a base URL that is not a URL", { ...live, FILE_LIBRARY_BASE_URL: "files example" }, [], /not an absolute URL/],
    [
      "a base URL without its scheme",
      { ...live },
      ["--base-url", "localhost:4010"],
      /"localhost:4010" has no scheme: did you mean http:\/\/localhost:4010\?/,
    ],
    [
      "the key as a flag",
      {},
      ["--api-key", "secret-on-the-command-line"],
      /--api-key is not accepted.*FILE_LIBRARY_API_KEY/,
    ],
    ["an unknown flag", {}, ["--base-ur", "x"], /Unknown option '--base-ur'/],
    [
      "a --rate-limit it cannot read",
      { ...live },
      ["--rate-limit", "fast"],
      /--rate-limit \(FILE_LIBRARY_RATE_LIMIT\) takes requests per second, minute or hour, such as 10\/s/,
    ],
    [
      "an unknown check",
      { ...live },
      ["--checks", "status_code_conformance,no_such_check"],
      /unknown check\(s\) no_such_check; see --list-checks/,
    ],
    [
      "a FILE_LIBRARY_SPEC that does not exist",
      { ...live, FILE_LIBRARY_SPEC: "/nonexistent/openapi.json" },
      [],
      /The bundled spec \/nonexistent\/openapi.json is missing: point FILE_LIBRARY_SPEC at/,
    ],
  ])("%s", async (_, env, args, message) => {
    const { code, stderr } = await contract(args, env);
    expect(code).toBe(2);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^contract: cannot start: /);
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain("secret-on-the-command-line");
  });

  it("an unreachable server, given by flags", async () => {
    const port = await closedPort();
    const { code, stderr } = await contract(["--base-url", `http://127.0.0.1:${port}`, "--file-id", "f"], {
      FILE_LIBRARY_API_KEY: "k",
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`the server at http://127.0.0.1:${port} is unreachable \\(.*ECONNREFUSED`));
  });

  it("--help explains the flags and variables and exits 0", async () => {
    const { code, stdout } = await contract(["--help"], {});
    expect(code).toBe(0);
    for (const word of ["--base-url", "--file-id", "FILE_LIBRARY_API_KEY", "FILE_LIBRARY_WRITE_CHECKS", "Exit codes"])
      expect(stdout).toContain(word);
  });
});

describe("npm run contract: a failed step or mock stops the run before the suite's results", {
  timeout: 30_000,
}, () => {
  afterEach(() => vi.restoreAllMocks());

  /** Runs the command with fake steps and mock; what it printed, and whether it stopped the mock. */
  async function withRepo(steps: { needed: boolean; all: boolean }, mockFails = false) {
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    const stop = vi.fn(async () => {});
    const repo: RepoPreparation = {
      // The lint settles last, as it does in the real run: it is niced and needed by no one.
      steps: () => ({
        needed: Promise.resolve(steps.needed),
        all: new Promise((resolve) => setTimeout(() => resolve(steps.all), 50)),
      }),
      startMock: async () => {
        if (mockFails) throw new Error("The Prism mock exited (code 1) before it listened.");
        return { baseUrl: "http://127.0.0.1:9", stop };
      },
    };
    const code = await runContractCommand(
      [],
      { name: "contract", usage: "", intro: "", repo },
      { ...process.env, FILE_LIBRARY_BASE_URL: "" },
    );
    return { code, output: lines.join("\n"), stopped: stop.mock.calls.length > 0 };
  }

  it.each([
    ["a step the suite does not need (the lint)", { needed: true, all: false }],
    ["a step the suite needs (the bundle)", { needed: false, all: false }],
  ])("%s failed: exit 1, no suite results, the mock stopped", async (_, steps) => {
    const { code, output, stopped } = await withRepo(steps);
    expect(code).toBe(1);
    expect(output).toContain("contract: stopped before the suite: fix the failed step(s) above.");
    expect(output).not.toContain("── contract suite against");
    expect(stopped).toBe(true);
  });

  it("the mock failed to start: exit 1 with its reason", async () => {
    const { code, output } = await withRepo({ needed: true, all: true }, true);
    expect(code).toBe(1);
    expect(output).toContain("contract: The Prism mock exited (code 1) before it listened.");
    expect(output).not.toContain("── contract suite against");
  });
});
