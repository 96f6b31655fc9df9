// covers: lib/command-line.ts, scripts/, bench/run.ts, sandbox/main.ts
// Every command of package.json answers --help with its usage, flags and defaults (exit 0) and a bogus flag with one
// line that names it and the accepted forms (exit 2), run as npm runs it (its line in sh); neither starts the work.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  helpText,
  namesOf,
  parseCommandLine,
  port,
  UsageError,
  wholeNumber,
  type Command,
  type Flag,
} from "../../lib/command-line.ts";
import { exitCodeOf, startChild } from "../../lib/process.ts";
import { fromRoot, repoRoot } from "../../scripts/lib/paths.ts";
import { STACK_LINE } from "../support/repo-copy.ts";

const sample = {
  name: "demo",
  invocation: "npm run demo --",
  about: "Does the demo.",
  flags: {
    port: { takes: "N", default: "0", parse: port, help: "port to listen on" },
    runs: { takes: "N", default: "3", parse: wholeNumber(1), help: "rounds to run" },
    only: { takes: "NAME,...", parse: namesOf(["a", "b"]), help: "run only these" },
    origin: { takes: "ORIGIN", repeats: true, help: "an origin;\nrepeat it for several" },
    base: { takes: "REF", help: "the older spec" },
    quick: { short: "q", help: "skip the slow part" },
  },
  operands: { name: "FILE", help: "the files" },
  more: "Environment: DEMO_KEY",
} as const satisfies Command<Record<string, Flag>>;
const { operands: _, ...noOperands } = sample;

const problem = (argv: string[], command: Command<Record<string, Flag>> = sample) => {
  try {
    parseCommandLine(command, argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${argv.join(" ")} was accepted`);
};

describe("parseCommandLine and helpText: one table gives the parse and the help", () => {
  it("reads every kind of flag, with the defaults of the absent ones parsed", () => {
    expect(parseCommandLine(sample, [])).toEqual({
      help: false,
      values: { port: 0, runs: 3, only: undefined, origin: [], base: undefined, quick: false },
      operands: [],
    });
    const parsed = parseCommandLine(sample, [
      "--port",
      "4010",
      "--runs=2",
      "--only",
      "b,a",
      "--origin",
      "x",
      "--origin=y",
      "-q",
      "f1",
      "--",
      "--f2",
    ]);
    expect(parsed).toEqual({
      help: false,
      values: { port: 4010, runs: 2, only: ["b", "a"], origin: ["x", "y"], base: undefined, quick: true },
      operands: ["f1", "--f2"],
    });
    // A value that starts with "-" goes after "=".
    expect(parseCommandLine(sample, ["--base=-x"])).toMatchObject({ values: { base: "-x" } });
  });

  it("asks for the help with --help or -h, whatever else is there (but a flag it does not know)", () => {
    expect(parseCommandLine(sample, ["--help"])).toEqual({ help: true });
    expect(parseCommandLine(sample, ["--port", "x", "-h"])).toEqual({ help: true });
    expect(problem(["--bogus", "--help"])).toMatch(/^unknown flag --bogus;/);
  });

  it("prints the usage, every flag with what it takes and its default, the operands and the rest", () => {
    expect(helpText(sample)).toBe(`Usage: npm run demo -- [flags] [FILE...]

Does the demo.

Flags:
  --port N            port to listen on (default: 0)
  --runs N            rounds to run (default: 3)
  --only NAME,...     run only these
  --origin ORIGIN...  an origin;
                      repeat it for several
  --base REF          the older spec
  -q, --quick         skip the slow part
  -h, --help          show this text and exit
  FILE...             the files

Environment: DEMO_KEY`);
    expect(helpText({ name: "x", invocation: "x", about: "X.", flags: {} })).toBe(
      "Usage: x [flags]\n\nX.\n\nFlags:\n  -h, --help  show this text and exit",
    );
  });

  it("says in one line what was wrong and what it accepts", () => {
    const flags = "the flags are --port N, --runs N, --only NAME,..., --origin ORIGIN, --base REF, --quick, --help";
    expect(problem(["--bogus"])).toBe(`unknown flag --bogus; ${flags}`);
    expect(problem(["--prot", "1"])).toBe(`unknown flag --prot (did you mean --port?); ${flags}`);
    expect(problem(["-x"])).toBe(`unknown flag -x; ${flags}`);
    expect(problem(["--port"])).toBe("--port needs a value: --port N");
    expect(problem(["--base", "--quick"])).toBe(
      '--base needs a value: --base REF (one that starts with "-" goes as --base=VALUE)',
    );
    expect(problem(["--quick=yes"])).toBe('--quick takes no value, got "--quick=yes"');
    expect(problem(["stray"], noOperands)).toBe(
      'unexpected argument "stray": npm run demo -- takes only flags (--port N, --runs N, --only NAME,..., --origin ORIGIN, --base REF, --quick, --help)',
    );
    for (const message of [problem(["--bogus"]), problem(["stray"], noOperands)]) expect(message).not.toContain("\n");
  });

  it("reads values by the table's parsers, each saying what it accepts", () => {
    expect(problem(["--port", "http"])).toBe(
      '--port takes a port number from 0 to 65535 (0: a free one, printed once listening), got "http"',
    );
    expect(problem(["--port", "65536"])).toMatch(/^--port takes a port number from 0 to 65535/);
    expect(parseCommandLine(sample, ["--port", "65535"])).toMatchObject({ values: { port: 65_535 } });
    expect(problem(["--runs", "0"])).toBe('--runs takes a whole number of at least 1, got "0"');
    expect(problem(["--runs", "1.5"])).toBe('--runs takes a whole number of at least 1, got "1.5"');
    expect(() => wholeNumber(1, 9)("10", "--n")).toThrow('--n takes a whole number from 1 to 9, got "10"');
    expect(problem(["--only", "a,c"])).toBe("--only takes names from a, b, comma-separated; unknown: c");
    expect(problem(["--only", ","])).toBe("--only takes names from a, b, comma-separated; got none");
  });
});

/** Every script of package.json: how it answers --help, or why it is not run here. */
const OURS = [
  "lint:spec",
  "build:spec",
  "generate",
  "check:generated",
  "mock",
  "sandbox",
  "build",
  "build:contract",
  "build:sandbox",
  "build:docs",
  "check:breaking",
  "test:stress",
  "test:mutation",
  "bench",
  "deps:cost",
  "contract",
];
/** Scripts whose flags are another tool's, which answers --help and a bogus flag itself. */
const TOOLS: Record<string, string> = {
  typecheck: "tsc's flags (tsc --help)",
  "lint:boundaries": "dependency-cruiser's flags",
  "lint:format": "Biome's flags (biome format --help): it checks, writing nothing",
  format: "Biome's flags (biome format --help): it writes the formatting",
  "test:unit": "vitest's flags",
  "test:e2e": "vitest's flags (the end-to-end tier, vitest.e2e.config.ts)",
  test: "runs contract, typecheck, lint:boundaries, lint:format and test:unit; flags go to the last",
  prepack: "npm's hook for npm pack: the build, run by npm, never typed",
};

/** Runs a command with stdout and stderr apart: the help is the whole of stdout, a usage error the whole of stderr. */
async function capture(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = startChild(command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { code: await exitCodeOf(child), stdout, stderr };
}
/** As a user types it: `npm run -s SCRIPT -- ARGS`. */
const npmRun = (script: string, args: string[]) => capture("npm", ["run", "-s", script, "--", ...args]);
const { scripts } = JSON.parse(await readFile(fromRoot("package.json"), "utf8")) as { scripts: Record<string, string> };
/**
 * What `npm run -s SCRIPT -- ARGS` runs: the script's line in sh with the arguments after it, node_modules/.bin first
 * on PATH, without npm's own start (a third of a second of CPU each, 40 times here). The test of npm below shows the two alike.
 */
const scriptRun = (script: string, args: string[]) =>
  capture("sh", ["-c", `${scripts[script]} "$@"`, script, ...args], {
    PATH: `${fromRoot("node_modules", ".bin")}${path.delimiter}${process.env.PATH}`,
  });

describe("every command, as npm runs it", () => {
  it("npm runs a script's line with the arguments after --, as this test runs it in sh", {
    timeout: 60_000,
  }, async () => {
    for (const [script, args] of [
      ["build:spec", ["--help"]],
      ["mock", ["--bogus"]],
      ["sandbox", ["--port", "70000"]],
    ] as const) {
      const [typed, inShell] = await Promise.all([npmRun(script, [...args]), scriptRun(script, [...args])]);
      expect(typed, `npm run -s ${script} -- ${args.join(" ")}`).toEqual(inShell);
    }
  });

  it("lists every script of package.json here, or says whose flags it takes", () => {
    expect(
      Object.keys(scripts)
        .filter((name) => !OURS.includes(name) && !(name in TOOLS))
        .sort(),
    ).toEqual([]);
    expect([...OURS, ...Object.keys(TOOLS)].filter((name) => !(name in scripts))).toEqual([]);
  });

  // In parallel: none of them starts its work, so none competes for long.
  describe.concurrent.each(OURS)("npm run %s", { timeout: 60_000 }, (script) => {
    it("-- --help prints its usage and flags, and nothing else, exit 0", async () => {
      const { code, stdout, stderr } = await scriptRun(script, ["--help"]);
      expect(code, stdout + stderr).toBe(0);
      expect(stdout).toMatch(/^Usage: /);
      expect(stdout).toMatch(/--help/);
      expect(stderr).toBe("");
    });

    it("-- --bogus is one line that names it and the accepted forms, exit 2", async () => {
      const { code, stdout, stderr } = await scriptRun(script, ["--bogus"]);
      expect(code, stdout + stderr).toBe(2);
      expect(stderr).not.toMatch(STACK_LINE);
      expect(stderr.trim().split("\n"), stderr).toHaveLength(1);
      // contract-tests/ words it in its own way: "Unknown option '--bogus' (see --help)".
      expect(stderr.trim()).toMatch(
        script === "contract"
          ? /^contract: cannot start: Unknown option '--bogus' \(see --help\)$/
          : new RegExp(`^${script}: unknown flag --bogus; the flags are .*--help`),
      );
      expect(stdout).toBe("");
    });
  });

  // The contract package's CLI keeps its own parser (contract-tests/runner/), in its own words; run from its source as its bin.
  describe.concurrent.each([[[]], [["proxy"]], [["replay"]]] as const)(
    "file-library-contract %j",
    { timeout: 60_000 },
    (subcommand) => {
      const cli = (args: string[]) =>
        capture(process.execPath, ["--import", "tsx", fromRoot("contract-tests/cli.ts"), ...subcommand, ...args]);
      it("--help prints its usage, exit 0; --bogus is one line naming it, exit 2", async () => {
        const [help, bogus] = await Promise.all([cli(["--help"]), cli(["--bogus"])]);
        expect(help.code, help.stderr).toBe(0);
        expect(help.stdout).toMatch(/^Usage: /);
        expect(bogus.code).toBe(2);
        expect(bogus.stderr.trim()).toMatch(
          /^file-library-contract( proxy| replay)?: cannot start: Unknown option '--bogus' \(see [^)]*--help\)$/,
        );
      });
    },
  );

  it("npm run bench -- --help names every section; --only takes only their names", { timeout: 60_000 }, async () => {
    const help = await scriptRun("bench", ["--help"]);
    for (const section of [
      "client-overhead",
      "client-cpu",
      "client-size",
      "suite-time",
      "sandbox-throughput",
      "proxy-throughput",
    ])
      expect(help.stdout).toContain(section);
    const wrong = await scriptRun("bench", ["--only", "client-size,nope"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim()).toBe(
      "bench: --only takes names from client-overhead, client-lines, client-cpu, client-size, suite-time, sandbox-throughput, proxy-throughput, comma-separated; unknown: nope (see npm run bench -- --help)",
    );
  });

  it("npm run mock and npm run sandbox take --port by the same rules", { timeout: 60_000 }, async () => {
    const [mock, sandbox] = await Promise.all([
      scriptRun("mock", ["--port", "70000"]),
      scriptRun("sandbox", ["--port", "70000"]),
    ]);
    for (const [name, run] of [
      ["mock", mock],
      ["sandbox", sandbox],
    ] as const) {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `${name}: --port takes a port number from 0 to 65535 (0: a free one, printed once listening), got "70000"`,
      );
    }
  });
});
