import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runCommand, startServer } from "../../lib/process.ts";
import { faults, legitimateVariants } from "../../sandbox/testing/index.ts";
import { bin, fromRoot } from "../../scripts/lib/paths.ts";
import { expectedFailures, faultExpectations } from "../fixtures/fault-expectations.ts";
import { installInto, publint } from "../support/packages.ts";
import { PACK_WAIT_MS, packed } from "../support/packed.ts";
import { failedChecks, FILE_ID, runContractSuite, SANDBOX_FIXTURES, SEED } from "../support/contract-suite.ts";

// What a front-end team does: install the published sandbox in a folder of its own and start it with npx.
const KEY = "team-key-3d9a";
let scratch: string;
let project: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-sandbox-package-"));
  const tarball = await packed("sandbox");
  await publint(tarball);
  project = await installInto(path.join(scratch, "team"), tarball);
}, PACK_WAIT_MS);
afterAll(() => rm(scratch, { recursive: true, force: true }));

// npm 12's npx echoes the command line it runs ("npm notice run …"): only the command's own output is read.
const npx = (args: string[]) => ["--no-install", "--loglevel=error", "file-library-sandbox", ...args];

describe("the sandbox package, installed from its tarball", { timeout: 120_000 }, () => {
  it("gets its SQLite driver with its prebuilt binary, which better-sqlite3's own package ships, not from a compile", () => {
    const driver = path.join(project, "node_modules", "better-sqlite3");
    expect(existsSync(path.join(driver, "prebuilds", `${process.platform}-${process.arch}.node`))).toBe(true);
    // A compile (node-gyp) leaves its binary and object files in build/; the package's prebuilt binary needs none.
    expect(existsSync(path.join(driver, "build"))).toBe(false);
  });

  it("explains every flag in --help, and offers no fault or variant (its testing entry does)", async () => {
    const { code, output } = await runCommand("npx", npx(["--help"]), { cwd: project });
    expect(code, output).toBe(0);
    for (const flag of ["--port", "--host", "--data", "--fixtures", "--url-ttl", "--max-body", "--cors-origin"])
      expect(output).toContain(flag);
    expect(output).not.toMatch(/--fault|--variant/);
  });

  it("ships the faults and variants in its testing entry only: no module its bin loads holds one", async () => {
    const dist = path.join(project, "node_modules", "file-library-sandbox", "dist");
    // The bundle's relative imports, static and dynamic, followed from an entry: every module that entry may load.
    const loadedBy = async (entry: string, seen = new Set<string>()): Promise<Set<string>> => {
      if (seen.has(entry)) return seen;
      seen.add(entry);
      const code = await readFile(path.join(dist, entry), "utf8");
      for (const [, imported] of code.matchAll(/(?:from|import\()\s*"\.\/([\w.-]+\.js)"/g))
        await loadedBy(imported!, seen);
      return seen;
    };
    const codeOf = async (entry: string) =>
      (await Promise.all([...(await loadedBy(entry))].map((file) => readFile(path.join(dist, file), "utf8")))).join(
        "\n",
      );
    // Descriptions as esbuild writes them: plain ASCII without quotes or backslashes, which it leaves as they are.
    const descriptions = [...Object.values(faults), ...Object.values(legitimateVariants)]
      .map((v) => v.description)
      .filter((d) => /^[\x20-\x7e]+$/.test(d) && !/["'\\]/.test(d));
    expect(descriptions.length).toBeGreaterThan(50);
    const [bin, testing] = await Promise.all([codeOf("main.js"), codeOf("testing.js")]);
    expect(descriptions.filter((d) => !testing.includes(d))).toEqual([]);
    expect(descriptions.filter((d) => bin.includes(d))).toEqual([]);
  });

  it("types its testing entry: a team's TypeScript that uses it compiles under strict settings, a fault given as a setting does not", async () => {
    await writeFile(
      path.join(project, "team.ts"),
      `import { faults, startSandbox, variation, type RunningSandbox } from "file-library-sandbox/testing";
export const start = (): Promise<RunningSandbox> => startSandbox({ apiKey: "k", ...variation({ fault: "unknown-id-404" }) });
export const description: string = faults["unknown-id-404"].description;
// @ts-expect-error: a fault is not a setting of the sandbox, but a wrapper that variation makes
export const wrong = () => startSandbox({ apiKey: "k", fault: "unknown-id-404" });
`,
    );
    const flags = [
      "--noEmit",
      "--strict",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
    ];
    const types = ["--typeRoots", fromRoot("node_modules", "@types"), "--types", "node"];
    const { code, output } = await runCommand(bin("tsc"), [...flags, ...types, "team.ts"], { cwd: project });
    expect(code, output).toBe(0);
  });

  it("starts a sandbox with a fault from a team's script through file-library-sandbox/testing: the suite fails it in exactly the fault's checks", async () => {
    const fault = "metadata-wrong-id";
    await writeFile(
      path.join(project, "faulty-sandbox.mjs"),
      `import { startSandbox, variation } from "file-library-sandbox/testing";
const sandbox = await startSandbox({ apiKey: process.env.FILE_LIBRARY_API_KEY, fixturesFile: process.argv[2], ...variation({ fault: process.argv[3] }) });
console.log("faulty sandbox listening at " + sandbox.baseUrl);
`,
    );
    const server = await startServer("node", ["faulty-sandbox.mjs", SANDBOX_FIXTURES, fault], {
      cwd: project,
      env: { ...process.env, FILE_LIBRARY_API_KEY: KEY },
      ready: /faulty sandbox listening at (http:\/\/\S+)/,
      timeoutMs: 30_000,
      what: "the installed sandbox's testing entry",
    });
    try {
      const run = await runContractSuite({ baseUrl: server.url, apiKey: KEY, fileId: FILE_ID, seed: SEED });
      expect(failedChecks(run).sort(), run.output).toEqual(expectedFailures(faultExpectations[fault]));
      expect(run.exitCode, run.output).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it("answers a flag it does not know with one line naming it and its flags, exit 2", async () => {
    const { code, output } = await runCommand("npx", npx(["--prot", "4010"]), { cwd: project });
    expect(code, output).toBe(2);
    expect(output.trim()).toMatch(
      /^sandbox: unknown flag --prot \(did you mean --port\?\); the flags are --port N, .*--help \(see file-library-sandbox --help\)$/,
    );
  });

  it("names no file it does not ship: no path of the kit's repository in its code (its README: package-readmes.test.ts)", async () => {
    const root = path.join(project, "node_modules", "file-library-sandbox");
    const shipped = (await readdir(root, { recursive: true })).map((file) => file.split(path.sep).join("/"));
    expect(shipped).toContain("dist/main.js");
    // Its messages are string literals of its code; esbuild's "// sandbox/core/x.ts" lines only say where code came from.
    const code = (
      await Promise.all(
        shipped.filter((file) => file.endsWith(".js")).map((file) => readFile(path.join(root, file), "utf8")),
      )
    )
      .join("\n")
      .split("\n")
      .filter((line) => !/^\s*\/\//.test(line))
      .join("\n");
    expect(
      code.match(/(?<![\w@./-])(?:sandbox|docs|src|lib|contract-tests|scripts|test)\/[\w./-]+\.\w+/g) ?? [],
    ).toEqual([]);
  });

  it("refuses fixtures that do not match the format without naming a file it does not ship", async () => {
    await writeFile(path.join(project, "bad.json"), JSON.stringify([{ id: "x", name: "n", content: 42 }]));
    const { code, output } = await runCommand("npx", npx(["--fixtures", "bad.json"]), {
      cwd: project,
      env: { ...process.env, FILE_LIBRARY_API_KEY: KEY },
    });
    expect(code, output).toBe(2);
    expect(output.trim()).toBe(
      "sandbox: Fixtures in bad.json do not match the format, a JSON array of { id, name, content, labels?, created_at?, publicUrl? }: /0/content must be string",
    );
  });

  it("serves the API with npx file-library-sandbox --data, and the contract suite passes against it with write checks on", async () => {
    const server = await startServer(
      "npx",
      npx(["--port", "0", "--data", "./files.db", "--fixtures", SANDBOX_FIXTURES]),
      {
        cwd: project,
        env: { ...process.env, FILE_LIBRARY_API_KEY: KEY },
        // Ready once it has said where its files are: on the SQLite file it was given.
        ready: /listening at (http:\/\/\S+)[\s\S]*database: \.\/files\.db, 3 file\(s\)/,
        timeoutMs: 30_000,
        what: "the installed sandbox",
        // npx runs the bin in a process of its own and passes no signal on: the whole group is stopped.
        group: true,
      },
    );
    try {
      const run = await runContractSuite({
        baseUrl: server.url,
        apiKey: KEY,
        fileId: FILE_ID,
        seed: SEED,
        writeChecks: true,
      });
      expect(failedChecks(run), run.output).toEqual([]);
      expect(run.exitCode, run.output).toBe(0);
    } finally {
      await server.stop();
    }
    expect(await readdir(project)).toContain("files.db");
  });
});
