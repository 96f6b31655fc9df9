// covers: vitest.config.ts, vitest.e2e.config.ts, test/support/test-tiers.ts
// The two test tiers stay honest: every test file runs in exactly one, the fast tier (`npm test`) starts no process,
// and the end-to-end tier (`npm run test:e2e`) holds only files that need one (or a browser).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { E2E_TESTS } from "../support/test-tiers.ts";
import { trackedFiles } from "../support/tracked-files.ts";

type TestConfig = { include?: string[]; exclude?: string[]; globalSetup?: string | string[] };
/**
 * A vitest config's test settings, loaded as vitest loads it. By a computed path: the configs import test/support/, and
 * dependency-cruiser's "tests-stay-in-test" would see them as modules outside test/ that import it.
 */
const testSettings = async (config: string): Promise<TestConfig> =>
  ((await import(pathToFileURL(fromRoot(config)).href)) as { default: { test: TestConfig } }).default.test;

/** The glob as a regular expression, as vitest reads one: `**` any folders, `*` any part of one name. */
function globPattern(glob: string): RegExp {
  const source = glob
    .split(/(\*\*\/|\*\*|\*)/)
    .map((part) =>
      part === "**/"
        ? "(?:.*/)?"
        : part === "**"
          ? ".*"
          : part === "*"
            ? "[^/]*"
            : part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${source}$`);
}
/** Whether the config runs `file`: one of its includes matches it and none of its excludes. */
const runs = ({ include = [], exclude = [] }: TestConfig, file: string) =>
  include.some((glob) => globPattern(glob).test(file)) && !exclude.some((glob) => globPattern(glob).test(file));

const tests = trackedFiles("test").filter((file) => file.endsWith(".test.ts"));
const [fast, e2e] = await Promise.all([testSettings("vitest.config.ts"), testSettings("vitest.e2e.config.ts")]);

/**
 * The imports that start a process (or a browser): node:child_process, lib/process.ts (whose every export starts or
 * watches one), Prism's start, the packed packages (npm packs them) and the browser driver. Import statements only, so
 * that a file naming them (this one) is not taken for one using them.
 */
const STARTS_A_PROCESS = [
  /^import [^;]*from "(?:node:)?child_process";/m,
  /^import [^;]*from "(?:\.\.\/)+lib\/process\.ts";/m,
  /^import [^;]*\bstartPrism\b[^;]*;/m,
  /^import [^;]*from "\.{1,2}\/(?:\.\.\/)*(?:support\/)?packed\.ts";/m,
  /^import [^;]*from "puppeteer-core";/m,
];
/** test/support/tracked-files.ts lists the repository's files with `git ls-files`: a read of the working tree, no install, milliseconds. */
const READS_THE_TREE = new Set(["test/support/tracked-files.ts"]);

/** The files of test/ that `file` imports, directly or through others, itself included. */
function importedFromTest(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, specifier] of readFileSync(fromRoot(file), "utf8").matchAll(/(?:from|import)\s+"(\.{1,2}\/[^"]+)"/g)) {
    const imported = path
      .relative(fromRoot(), path.resolve(path.dirname(fromRoot(file)), specifier!))
      .split(path.sep)
      .join("/");
    if (imported.startsWith("test/") && existsSync(fromRoot(imported))) importedFromTest(imported, seen);
  }
  return seen;
}
/** The modules through which a test file starts a process: itself or the test/ modules it imports. */
const processStarters = (file: string) =>
  [...importedFromTest(file)].filter(
    (module) =>
      !READS_THE_TREE.has(module) &&
      STARTS_A_PROCESS.some((marker) => marker.test(readFileSync(fromRoot(module), "utf8"))),
  );

describe("the two test tiers", () => {
  it("the globs read as vitest reads them", () => {
    expect(globPattern("test/**/*.test.ts").test("test/suite/checks/a.test.ts")).toBe(true);
    expect(globPattern("test/**/*.test.ts").test("test/a.test.ts")).toBe(true);
    expect(globPattern("**/node_modules/**").test("test/node_modules/x/a.test.ts")).toBe(true);
    expect(globPattern("test/*.test.ts").test("test/suite/a.test.ts")).toBe(false);
    expect(globPattern("test/a.test.ts").test("test/aXtest.ts")).toBe(false);
  });

  it("every test file runs in exactly one tier: none in both, none in neither", () => {
    expect(tests.length).toBeGreaterThan(100);
    expect(tests.filter((file) => runs(fast, file) && runs(e2e, file))).toEqual([]);
    expect(tests.filter((file) => !runs(fast, file) && !runs(e2e, file))).toEqual([]);
    // The list names files that exist, each once.
    expect(E2E_TESTS.filter((file) => !tests.includes(file))).toEqual([]);
    expect(new Set(E2E_TESTS).size).toBe(E2E_TESTS.length);
  });

  it("no file of the fast tier starts a process, by itself or through a module of test/ it imports", () => {
    const starting = tests.filter((file) => runs(fast, file)).map((file) => [file, processStarters(file)] as const);
    expect(Object.fromEntries(starting.filter(([, modules]) => modules.length > 0))).toEqual({});
  });

  it("every file of the end-to-end tier needs it: it starts a process or a browser", () => {
    expect(tests.filter((file) => runs(e2e, file) && processStarters(file).length === 0)).toEqual([]);
  });

  it("only the end-to-end tier packs the packages", () => {
    expect(fast.globalSetup).not.toContain("test/support/pack-service.ts");
    expect(e2e.globalSetup).toContain("test/support/pack-service.ts");
  });

  it("the mutation runs' configs find their tests, all in the fast tier (StrykerJS runs them in its own process)", async () => {
    for (const config of ["vitest.mutation.config.ts", "vitest.mutation-judges.config.ts"]) {
      const settings = await testSettings(config);
      const found = tests.filter((file) => runs(settings, file));
      expect(found.length, config).toBeGreaterThan(0);
      // Each include names tests that exist and run: a file renamed or moved would leave StrykerJS with fewer.
      for (const glob of settings.include ?? [])
        expect(
          found.some((file) => globPattern(glob).test(file)),
          `${config}: ${glob}`,
        ).toBe(true);
      expect(
        found.filter((file) => !runs(fast, file)),
        config,
      ).toEqual([]);
    }
    for (const stryker of ["stryker.config.mjs", "stryker.judges.config.mjs"]) {
      const { vitest } = (
        (await import(pathToFileURL(fromRoot(stryker)).href)) as { default: { vitest: { configFile: string } } }
      ).default;
      expect(existsSync(fromRoot(vitest.configFile)), `${stryker}: ${vitest.configFile}`).toBe(true);
    }
  });
});
