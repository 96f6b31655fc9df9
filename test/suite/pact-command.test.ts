// covers: contract-tests/runner/pact-command.ts, contract-tests/cli.ts
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { FORMAT } from "../../contract-tests/recording/format.ts";
import { runCommand } from "../../lib/process.ts";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { runPactCommand } from "../../contract-tests/runner/pact-command.ts";

const NAME = "file-library-contract";
let scratch: string;
let recording: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-pact-command-"));
  recording = path.join(scratch, "app.jsonl");
  const line = {
    format: FORMAT,
    seq: 1,
    at: "",
    method: "GET",
    target: "/studio/v1/library/files/doc-1",
    operation: "getFile",
    durationMs: 1,
    findings: [],
    request: { auth: "key", headers: {}, body: null },
    response: {
      status: 200,
      headers: { "content-type": "application/json" },
      body: { text: '{"id":"doc-1","name":"a","size":1,"created_at":"2026-01-02T03:04:05Z","labels":[]}' },
    },
  };
  await writeFile(recording, `${JSON.stringify(line)}\n`);
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** The command's exit code and what it printed, stdout and stderr together. */
async function run(...argv: string[]) {
  const said: string[] = [];
  const spies = [vi.spyOn(console, "error"), vi.spyOn(console, "log")].map((spy) =>
    spy.mockImplementation((line: string) => void said.push(line)),
  );
  try {
    return { code: await runPactCommand(argv, NAME, {}), output: said.join("\n") };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describe("pact", () => {
  it.each([
    [["export", "app.jsonl"], "pact export: cannot start: --consumer NAME is required"],
    [
      ["export", "app.jsonl", "--consumer", "web", "--pact-version", "2"],
      'pact export: cannot start: --pact-version takes 4 or 3, got "2"',
    ],
    [
      ["export", "app.jsonl", "--consumer", "web", "--max-interactions", "0"],
      'pact export: cannot start: --max-interactions takes a whole number of at least 1, got "0"',
    ],
    [["export", "--consumer", "web"], "pact export: cannot start: give one recording (RECORDING), got 0"],
    [
      ["export", "missing.jsonl", "--consumer", "web"],
      'pact export: cannot start: cannot read the recording "missing.jsonl": no such file',
    ],
    [["check"], "pact check: cannot start: give one Pact file (PACT_FILE), got 0"],
    [["check", "missing.json"], 'pact check: cannot start: cannot read the pact "missing.json": no such file'],
    [["verify", "x"], 'pact: cannot start: no subcommand "verify": give export or check'],
    [["export", "app.jsonl", "--consumer", "web", "--bogus"], "pact export: cannot start: Unknown option '--bogus'"],
  ])("exits 2 on %j, in one line naming what is wrong", async (argv, line) => {
    const { code, output } = await run(...argv.map((arg) => (arg === "app.jsonl" ? recording : arg)));
    expect(code).toBe(2);
    expect(output.split("\n")).toHaveLength(1);
    expect(output).toContain(`${NAME} ${line}`);
  });

  it("writes pacts/CONSUMER-PROVIDER.json by default through the command line, names made safe for a file name", {
    timeout: 30_000,
  }, async () => {
    const { code, output } = await runCommand(
      process.execPath,
      [
        "--import",
        import.meta.resolve("tsx"),
        fromRoot("contract-tests/cli.ts"),
        "pact",
        "export",
        recording,
        "--consumer",
        "web app",
        "--provider",
        "files/v1",
      ],
      { cwd: scratch },
    );
    expect(code, output).toBe(0);
    const pact = JSON.parse(await readFile(path.join(scratch, "pacts", "web-app-files-v1.json"), "utf8")) as {
      consumer: { name: string };
      provider: { name: string };
    };
    expect([pact.consumer.name, pact.provider.name]).toEqual(["web app", "files/v1"]);
    expect(output).toContain("1 interaction(s) from 1 exchange(s) (0 duplicate(s)), written to");
  });

  it("prints its help with -h (exit 0), and with no subcommand (exit 2)", async () => {
    expect(await run("--help")).toMatchObject({
      code: 0,
      output: expect.stringContaining("pact check PACT_FILE [--report-dir DIR]"),
    });
    expect((await run()).code).toBe(2);
  });
});
