// Given any module, its tests are found by name or by a `covers:` line: a unit test is named after its module, in the
// area of its folder; a test that spans modules names them (or a folder, ending in /) in its first comment lines.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { trackedFiles } from "../support/tracked-files.ts";

/** Where the tests of each folder's modules live. lib/ is shared by the suite and the sandbox: any area may test it. */
const AREAS: Record<string, string[]> = {
  src: ["client"],
  sandbox: ["sandbox"],
  "contract-tests": ["suite"],
  lib: ["spec", "suite", "sandbox", "client"],
};
const TEST_AREAS = ["client", "suite", "sandbox", "spec", "consumers", "repo"];

const tracked = trackedFiles();

/** The modules whose tests must be findable: TypeScript sources of the four folders, not declarations, configs or the suite's own test files. */
const modules = tracked.filter(
  (file) =>
    /^(src|sandbox|contract-tests|lib)\/.+\.ts$/.test(file) &&
    !/\.d\.ts$|\.test\.ts$|\.config\.ts$|(^|\/)(dist|generated)\//.test(file),
);
const tests = tracked.filter((file) => /^test\/.+\.test\.ts$/.test(file));

/** The `covers:` entries of a test: from its comment lines at the top, comma-separated. */
function coversOf(test: string): string[] {
  const head = readFileSync(fromRoot(test), "utf8").split("\n").slice(0, 5);
  return head.flatMap(
    (line) =>
      /^\/\/ covers: (.+)$/
        .exec(line)?.[1]
        ?.split(",")
        .map((entry) => entry.trim().replace(/ \(.*\)$/, "")) ?? [],
  );
}
const covers = new Map(tests.map((test) => [test, coversOf(test)]));

/** Where a module's unit test may be: its name in its area, or in the area's folder of the module's own folder (test/suite/checks/ for contract-tests/checks/). */
function unitTestPaths(module: string): string[] {
  const name = path.basename(module, ".ts");
  const folder = path.dirname(module).split("/").slice(1).join("/");
  return AREAS[module.split("/")[0]!]!.flatMap((area) => [
    `test/${area}/${name}.test.ts`,
    ...(folder ? [`test/${area}/${folder}/${name}.test.ts`] : []),
  ]);
}

/** The tests of a module: its name in its area, or a covers line that names it or a folder above it. */
function testsOf(module: string): string[] {
  const byName = tests.filter((test) => unitTestPaths(module).includes(test));
  const byCovers = tests.filter((test) =>
    covers.get(test)!.some((entry) => entry === module || (entry.endsWith("/") && module.startsWith(entry))),
  );
  return [...byName, ...byCovers];
}

describe("test/ is laid out by area, and every module's tests can be found", () => {
  it("has no test outside the areas", () => {
    expect(tests.filter((test) => !TEST_AREAS.includes(test.split("/")[1]!))).toEqual([]);
  });

  it("finds a test for every module of src/, sandbox/, contract-tests/ and lib/", () => {
    expect(modules.length).toBeGreaterThan(50);
    expect(modules.filter((module) => testsOf(module).length === 0)).toEqual([]);
  });

  it("names each test in a folder of an area after a module of that folder", () => {
    const nested = tests.filter((test) => test.split("/").length > 3);
    expect(nested.filter((test) => !modules.some((module) => unitTestPaths(module).includes(test)))).toEqual([]);
  });

  it("names in covers lines only modules and folders that exist", () => {
    const entries = [...covers.entries()].flatMap(([test, entries]) => entries.map((entry) => ({ test, entry })));
    expect(
      entries.filter(
        ({ entry }) => !tracked.some((file) => file === entry || (entry.endsWith("/") && file.startsWith(entry))),
      ),
    ).toEqual([]);
  });
});

describe("test files share their worker's modules (isolate: false in vitest.config.ts)", () => {
  it("none mocks a module, which a shared module cache would carry into the next file", () => {
    const mocking = tests.filter((test) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(fromRoot(test), "utf8")));
    expect(mocking).toEqual([]);
  });

  it("the config puts back what a test changed of its worker: the environment, globals and spies", () => {
    // Read as text: the config imports the tests' sequencer, and only test files may import test/.
    const settings = Object.fromEntries(
      [...readFileSync(fromRoot("vitest.config.ts"), "utf8").matchAll(/^ {4}(\w+): (true|false),$/gm)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    expect(settings).toMatchObject({
      isolate: "false",
      unstubEnvs: "true",
      unstubGlobals: "true",
      restoreMocks: "true",
    });
  });

  it("but the mutation runs' configs isolate each file: StrykerJS's per-test coverage misses a module another file loaded first", () => {
    for (const config of ["vitest.mutation.config.ts", "vitest.mutation-judges.config.ts"]) {
      // After the unit tests' settings are spread in, or they would set it back.
      expect(readFileSync(fromRoot(config), "utf8"), config).toMatch(
        /^ {4}\.\.\.base\.test,\n(?: {4}\/\/.*\n)* {4}isolate: true,$/m,
      );
    }
  });
});
