// covers: contract-tests/runner/compiled-suite.ts, lib/node-package-build.ts
import { cp, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compiledSuiteConfig, suiteEntries } from "../../contract-tests/runner/compiled-suite.ts";
import { fromRoot } from "../../scripts/lib/paths.ts";

// The suite compiles from contract-tests/ and the kit's modules it imports (src/, lib/): each copy has all three, so
// that a change in one copy is that copy's alone. npm packages stay imports, so a copy needs no node_modules.
async function copyOfTheSuite(into: string): Promise<string> {
  for (const dir of ["contract-tests", "src", "lib"]) {
    await cp(fromRoot(dir), path.join(into, dir), { recursive: true, filter: (from) => !/[/\\](dist|node_modules)$/.test(from) });
  }
  return path.join(into, "contract-tests");
}

/** The compiled config, which these copies always get: undefined would be a failed compile. */
async function compiled(root: string, cache: string): Promise<string> {
  const config = await compiledSuiteConfig(root, cache);
  expect(config).toBeTypeOf("string");
  return config!;
}

describe("the suite compiled from source", () => {
  let scratch: string;
  let cache: string;
  let suiteA: string;
  let suiteB: string;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), "compiled-suite-"));
    cache = path.join(scratch, "cache");
    suiteA = await copyOfTheSuite(path.join(scratch, "a"));
    suiteB = await copyOfTheSuite(path.join(scratch, "b"));
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  it("is the package's layout: the config, the files it names and the test files as JavaScript, the manifest beside dist/", async () => {
    const config = await compiled(suiteA, cache);
    const dist = path.dirname(config);
    expect(path.basename(config)).toBe("vitest.config.js");
    const entries = await suiteEntries(dist, ".js");
    expect(entries.filter((file) => file.endsWith(".contract.test.js"))).toEqual(["getFile.contract.test.js", "getFileDownloadUrl.contract.test.js", "updateFile.contract.test.js"]);
    for (const entry of entries) expect((await stat(path.join(dist, entry))).isFile()).toBe(true);
    expect(JSON.parse(await readFile(path.join(dist, "..", "package.json"), "utf8"))).toMatchObject({ name: "file-library-contract" });
    // Compiled as the package is: no TypeScript left, and npm packages imported, not bundled in.
    const code = await readFile(config, "utf8");
    expect(code).toMatch(/from "vitest\/config"/);
    expect(code).not.toMatch(/: string\b|satisfies /);
  });

  it("is compiled once for the same bytes: a second call is a hit that leaves the compiled files as they were", async () => {
    const config = await compiled(suiteA, cache);
    const before = (await stat(config)).mtimeMs;
    expect(await compiled(suiteA, cache)).toBe(config);
    expect((await stat(config)).mtimeMs).toBe(before);
  });

  it("is compiled again when a module it imports changes, even one outside the suite's folder (src/)", async () => {
    const before = await compiled(suiteA, cache);
    const module = path.join(suiteA, "..", "src", "excerpt.ts");
    const source = await readFile(module, "utf8");
    expect(source).toContain("}…`");
    await writeFile(module, source.replace("}…`", "}… a marker the compile must carry`"));
    const after = await compiled(suiteA, cache);
    expect(after).not.toBe(before);
    const outputs = await Promise.all((await readdir(path.dirname(after))).filter((f) => f.endsWith(".js")).map((f) => readFile(path.join(path.dirname(after), f), "utf8")));
    expect(outputs.join("\n")).toContain("a marker the compile must carry");
    // The earlier compile stays: a run that started on it may still be reading it.
    expect((await stat(before)).isFile()).toBe(true);
  });

  it("keeps one record per copy: two copies that share the cache never take each other's compile", async () => {
    const a = await compiled(suiteA, cache);
    const b = await compiled(suiteB, cache);
    expect(b).not.toBe(a); // copy A carries the change of the test above, copy B does not
    expect(await compiled(suiteA, cache)).toBe(a);
    expect(await compiled(suiteB, cache)).toBe(b);
  });

  it("gives concurrent runs of the same bytes one compile that works for each", async () => {
    const fresh = path.join(scratch, "concurrent-cache");
    const configs = await Promise.all([1, 2, 3, 4].map(() => compiled(suiteB, fresh)));
    expect(new Set(configs).size).toBe(1);
    expect((await stat(configs[0]!)).isFile()).toBe(true);
    // Nothing half-written is left beside it.
    expect((await readdir(fresh)).filter((name) => name.startsWith("compiling-") || name.endsWith(".tmp"))).toEqual([]);
  });

  it("removes compiles no run used for an hour once it compiles another, and keeps the recent ones", async () => {
    const pruned = path.join(scratch, "pruned-cache");
    const old = path.dirname(path.dirname(await compiled(suiteA, pruned)));
    const recent = path.dirname(path.dirname(await compiled(suiteB, pruned)));
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(old, twoHoursAgo, twoHoursAgo);
    const module = path.join(suiteB, "..", "lib", "openapi", "methods.ts");
    await writeFile(module, `${await readFile(module, "utf8")}\n// changed for the pruning test\n`);
    const newest = path.dirname(path.dirname(await compiled(suiteB, pruned)));
    const left = await readdir(pruned);
    expect(left).toContain(path.basename(newest));
    expect(left).toContain(path.basename(recent));
    expect(left).not.toContain(path.basename(old));
  });

  it("is undefined, so that the source runs as it is, when the source does not compile", async () => {
    const broken = await copyOfTheSuite(path.join(scratch, "broken"));
    await writeFile(path.join(broken, "http", "curl.ts"), "export const curl = (;\n");
    const brokenCache = path.join(scratch, "broken-cache");
    expect(await compiledSuiteConfig(broken, brokenCache)).toBeUndefined();
    // Nothing half-written is left, and no record claims a compile.
    expect(await readdir(brokenCache)).toEqual([]);
  });

  it("is undefined when its cache folder cannot be written", async () => {
    const notAFolder = path.join(scratch, "a-file");
    await writeFile(notAFolder, "");
    expect(await compiledSuiteConfig(suiteA, path.join(notAFolder, "cache"))).toBeUndefined();
  });
});
