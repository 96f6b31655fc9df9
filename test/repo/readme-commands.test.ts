// covers: package.json, scripts/build-spec.ts, bench/run.ts, test/support/bundled-spec.ts, test/support/pack-service.ts
// Every `npm run` command the README and the docs name works in a copy of the repository that has no build output (as a fresh
// clone right after `npm ci`): it builds what it needs first, or says in one line what to do; none prints a stack trace.
// The three package builds are read from the run's packs, made in such a copy; npm test's own steps are left to it.
import { existsSync, readFileSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exitCodeOf, runCommand, signalChild, startChild, waitForOutput } from "../../lib/process.ts";
import { fromRoot, repoRoot } from "../../scripts/lib/paths.ts";
import { PACKED_IN, packOutput, type PackageName } from "../support/pack-service.ts";
import { PACK_WAIT_MS, packed } from "../support/packed.ts";
import { copyOfRepo, STACK_LINE } from "../support/repo-copy.ts";

/** The commands and what each must end with; every one the README names is here or in NOT_RUN_HERE. */
const COMMANDS: Record<string, { args?: string[]; exit: number; says: RegExp; makes?: string }> = {
  "lint:spec": { exit: 0, says: /valid/ },
  "build:spec": { exit: 0, says: /Bundled dist\/openapi\.yaml and dist\/openapi\.json/ },
  "check:generated": { exit: 0, says: /matches the spec/ },
  generate: { exit: 0, says: /schema\.d\.ts/ },
  // Its first step bundles the spec (the types read it), in silence; `--version` goes to tsc, its last, which prints
  // it and stops there: the check of every file is `npm test`'s own second step, a minute of CPU not spent twice.
  typecheck: { args: ["--version"], exit: 0, says: /^Version 5\.\d+\.\d+\n$/, makes: "dist/openapi.json" },
  "build:docs": { exit: 0, says: /Wrote dist\/docs\/index\.html/ },
  // Its plan first, then its section's start and end (stderr), then the tables (stdout).
  bench: {
    args: ["--only", "client-size"],
    exit: 0,
    says: /^(?=[\s\S]*bench: the plan, about)(?=[\s\S]*bench: \[1\/1\] client-size took \d+ s)[\s\S]*gzip kB over openapi-fetch/,
  },
  "deps:cost": { exit: 0, says: /^\| workerd \| \d+ \| [\d.]+ \|$[\s\S]*Install-script times: not measured/m },
  // The copy has one commit and no tag: nothing to compare with, which it says in one line.
  "check:breaking": {
    exit: 2,
    says: /^check:breaking: cannot start: no tag and no origin\/main to compare with: pass --base REF or --base-spec FILE\.$/m,
  },
};
/**
 * The builds of the three packages: each is its package's prepack script, which the run's pack service
 * (test/support/pack-service.ts) runs once in a copy like this one, with no build output, for every test that installs
 * a package. What each printed there is read here, not built a second time (a minute of CPU).
 */
const PACKED: Record<string, { pack: PackageName; manifest: string; says: RegExp }> = {
  build: { pack: "client", manifest: "package.json", says: /Built dist/ },
  "build:contract": { pack: "contract", manifest: "contract-tests/package.json", says: /Built contract-tests\/dist/ },
  "build:sandbox": { pack: "sandbox", manifest: "sandbox/package.json", says: /Built sandbox\/dist/ },
};
/** Servers: each must print where it listens, then stop on Ctrl-C. */
const SERVERS: Record<string, RegExp> = {
  mock: /listening at http:\/\/127\.0\.0\.1:\d+/,
  sandbox: /listening at http:\/\/127\.0\.0\.1:\d+/,
};
const NOT_RUN_HERE: Record<string, string> = {
  test: "the whole test run, of which this test is a part",
  "test:unit": "the fast tier's tests, the last step of npm test (its global setup bundles the spec first)",
  "test:e2e": "this very test run, the end-to-end tier (vitest.e2e.config.ts), which CI runs after npm test",
  "test:stress": "ten rounds of the live-suite tests under load, minutes long (its tests run in npm test)",
  "test:mutation": "StrykerJS over src/, minutes long on its own (its tests run in npm test)",
  // npm test is `contract -- --mock && typecheck && lint:boundaries && lint:format && test:unit`, and CI runs it in a fresh clone right
  // after npm ci: its first step runs there with no build output, as this test would run it.
  contract: "the first step of npm test, which CI runs in a fresh clone right after npm ci, with no build output",
  "lint:boundaries": "the third step of npm test; it reads the sources only, so no build output changes it",
  "lint:format": "the fourth step of npm test; it reads the sources only, so no build output changes it",
  format: "writes the formatting that lint:format checks: a contributor's command, run before a commit",
};

/** The repository's package.json, read once. */
const rootManifest = JSON.parse(readFileSync(fromRoot("package.json"), "utf8")) as { scripts: Record<string, string> };

let copy: string;
const env = {
  ...process.env,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  FILE_LIBRARY_API_KEY: "readme-commands-key",
};

beforeAll(async () => {
  copy = await copyOfRepo("file-library-readme-");
}, 60_000);
afterAll(() => rm(copy, { recursive: true, force: true }));

describe("every command the README names works right after npm ci, in a copy with no build output", () => {
  it("names no command this test does not run or say why not", async () => {
    // The README and the pages it sends each reader to.
    const pages = [
      "README.md",
      ...(await readdir(fromRoot("docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
    ];
    const texts = await Promise.all(pages.map((page) => readFile(fromRoot(page), "utf8")));
    const named = new Set(texts.flatMap((text) => [...text.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!)));
    const known = new Set([
      ...Object.keys(COMMANDS),
      ...Object.keys(PACKED),
      ...Object.keys(SERVERS),
      ...Object.keys(NOT_RUN_HERE),
    ]);
    expect([...named].filter((name) => !known.has(name))).toEqual([]);
    // And every command here is a script of package.json.
    const { scripts } = rootManifest;
    expect([...known].filter((name) => !(name in scripts))).toEqual([]);
  });

  it("leaves to npm test what npm test runs first, and CI runs npm ci, npm test, then npm run test:e2e", async () => {
    const { scripts } = rootManifest;
    expect(scripts.test!.split(" && ")).toEqual([
      "npm run contract -- --mock",
      "npm run typecheck",
      "npm run lint:boundaries",
      "npm run lint:format",
      "npm run test:unit",
    ]);
    expect(scripts["test:e2e"]).toBe("vitest run --config vitest.e2e.config.ts");
    const ci = (await readFile(fromRoot(".ci/run"), "utf8"))
      .split("\n")
      .filter((line) => /^\s*npm (ci|test|run)\b/.test(line));
    // Each npm line without its flags: the two tiers, in this order, after the install.
    expect(
      ci.map((line) =>
        line
          .trim()
          .split(/\s+/)
          .filter((word) => !word.startsWith("-"))
          .join(" "),
      ),
    ).toEqual(["npm ci", "npm test", "npm run test:e2e"]);
  });

  // One at a time, each in a copy that never had a build (dist/ removed before each): the order cannot help.
  it.each(Object.entries(COMMANDS))(
    "npm run %s",
    { timeout: 240_000 },
    async (name, { args = [], exit, says, makes }) => {
      for (const built of ["dist", "contract-tests/dist", "sandbox/dist", "reports"])
        await rm(path.join(copy, built), { recursive: true, force: true });
      const { code, output } = await runCommand("npm", ["run", "-s", name, ...(args.length ? ["--", ...args] : [])], {
        cwd: copy,
        env,
      });
      expect(output).not.toMatch(STACK_LINE);
      expect(output).toMatch(says);
      expect(code, output).toBe(exit);
      if (makes) expect(existsSync(path.join(copy, makes)), `${makes} made first`).toBe(true);
    },
  );

  it.each(Object.entries(PACKED))(
    "npm run %s, as the prepack of the package packed for this run",
    { timeout: PACK_WAIT_MS },
    async (name, { pack, manifest, says }) => {
      // The same command line: the workspaces' run from their own folder.
      const root = rootManifest;
      const own = JSON.parse(await readFile(fromRoot(manifest), "utf8")) as { scripts: Record<string, string> };
      expect(own.scripts.prepack).toBe(
        manifest === "package.json" ? root.scripts[name] : root.scripts[name]!.replace(" scripts/", " ../scripts/"),
      );
      const output = await readFile(packOutput(await packed(pack)), "utf8");
      // In a copy, never the repository itself, whose build output a developer's earlier build may have left.
      const [where] = output.split("\n");
      expect(where).toMatch(new RegExp(`^${PACKED_IN}(/\\S+), with no dist, contract-tests/dist, sandbox/dist$`));
      expect(where!.slice(PACKED_IN.length).split(",")[0]).not.toBe(repoRoot.replace(/\/$/, ""));
      expect(output).not.toMatch(STACK_LINE);
      expect(output).toMatch(says);
    },
  );

  it.each(Object.entries(SERVERS))(
    "npm run %s starts, says where, and stops on Ctrl-C",
    { timeout: 60_000 },
    async (name, listening) => {
      await rm(path.join(copy, "dist"), { recursive: true, force: true });
      const child = startChild("npm", ["run", "-s", name], {
        cwd: copy,
        env,
        group: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
      await waitForOutput(child, listening, 45_000);
      signalChild(child, "SIGINT");
      const code = await exitCodeOf(child);
      expect(output).not.toMatch(STACK_LINE);
      expect([0, 130]).toContain(code);
    },
  );
});
