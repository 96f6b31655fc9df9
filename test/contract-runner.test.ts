import { describe, expect, it } from "vitest";
import { closedPort } from "./support/closed-port.ts";
import { exitCodeOf } from "../lib/process.ts";
import { startScript } from "./support/processes.ts";

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
    ["a base URL that is not a URL", { ...live, FILE_LIBRARY_BASE_URL: "files.example" }, [], /not an absolute URL/],
    ["the key as a flag", {}, ["--api-key", "secret-on-the-command-line"], /--api-key is not accepted.*FILE_LIBRARY_API_KEY/],
    ["an unknown flag", {}, ["--base-ur", "x"], /Unknown option '--base-ur'/],
    ["a --rate-limit it cannot read", { ...live }, ["--rate-limit", "fast"], /--rate-limit \(FILE_LIBRARY_RATE_LIMIT\) takes requests per second, minute or hour, such as 10\/s/],
    ["a FILE_LIBRARY_SPEC that does not exist", { ...live, FILE_LIBRARY_SPEC: "/nonexistent/openapi.json" }, [], /The bundled spec \/nonexistent\/openapi.json is missing: point FILE_LIBRARY_SPEC at/],
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
    const { code, stderr } = await contract(["--base-url", `http://127.0.0.1:${port}`, "--file-id", "f"], { FILE_LIBRARY_API_KEY: "k" });
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`the server at http://127.0.0.1:${port} is unreachable \\(.*ECONNREFUSED`));
  });

  it("--help explains the flags and variables and exits 0", async () => {
    const { code, stdout } = await contract(["--help"], {});
    expect(code).toBe(0);
    for (const word of ["--base-url", "--file-id", "FILE_LIBRARY_API_KEY", "FILE_LIBRARY_WRITE_CHECKS", "Exit codes"]) expect(stdout).toContain(word);
  });
});
