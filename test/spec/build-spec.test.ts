import { existsSync } from "node:fs";
import { readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildSpec, ensureBundledSpec } from "../../scripts/lib/build-spec.ts";
import { runCommand } from "../../lib/process.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";
import { copyOfRepo } from "../support/repo-copy.ts";

// The tests rewrite the shared bundle (always as the same document) and read its proof: in one file, never at once.
describe("the bundle on a proven pass: buildSpec (npm run contract, build:spec) and ensureBundledSpec (--if-stale, the tests' global setup)", {
  timeout: 60_000,
}, () => {
  it("the bundle is kept as written on reuse, and build:spec (no reuse) bundles anew", async () => {
    expect((await buildSpec()).message).toBe("Bundled dist/openapi.yaml and dist/openapi.json.");
    expect(await buildSpec({ reuse: true })).toEqual({
      ok: true,
      message: "dist/openapi.yaml and dist/openapi.json are already bundled from these very inputs.",
      reused: true,
    });
    const anew = await buildSpec();
    expect(anew.message).toBe("Bundled dist/openapi.yaml and dist/openapi.json.");
    expect(anew.reused).toBeUndefined();
  });

  it("ensureBundledSpec bundles when the bundle is not the one its inputs make, and not again once it is, whatever the files' times", async () => {
    await ensureBundledSpec();
    expect(await ensureBundledSpec()).toBeUndefined();
    // An old time alone changes nothing: the proof is the content (a checkout sets times as it likes).
    const longAgo = new Date("2000-01-01T00:00:00Z");
    await utimes(bundledSpec.json, longAgo, longAgo);
    expect(await ensureBundledSpec()).toBeUndefined();
    // A bundle changed since it was made is made again. The change is one more newline, written aside and renamed
    // into place: other test files read the bundle meanwhile, and it stays the same document for them.
    const bundled = await readFile(bundledSpec.json, "utf8");
    const changed = `${bundledSpec.json}.${process.pid}.tmp`;
    await writeFile(changed, `${bundled}\n`);
    await rename(changed, bundledSpec.json);
    expect(await ensureBundledSpec()).toEqual({
      ok: true,
      message: expect.stringContaining("Bundled dist/openapi.yaml and dist/openapi.json"),
    });
    expect(await readFile(bundledSpec.json, "utf8")).toBe(bundled);
    expect((await stat(bundledSpec.json)).mtimeMs).toBeGreaterThan(longAgo.getTime());
    expect(await ensureBundledSpec()).toBeUndefined();
  });

  it("build:spec --if-stale bundles in silence, where there is no bundle and where it changed, for it runs before the command the user typed", async () => {
    // In a copy of its own (its own dist/ and its own step records): no other test's bundle can do the work for it.
    const copy = await copyOfRepo("file-library-build-spec-");
    try {
      const bundle = path.join(copy, "dist", "openapi.json");
      expect(existsSync(bundle)).toBe(false);
      expect(await runScript(copy, ["--if-stale"])).toEqual({ code: 0, output: "" });
      const bundled = await readFile(bundle, "utf8");
      await writeFile(bundle, `${bundled}\n`);
      expect(await runScript(copy, ["--if-stale"])).toEqual({ code: 0, output: "" });
      expect(await readFile(bundle, "utf8")).toBe(bundled);
      // Without the flag it says what it did.
      expect(await runScript(copy, [])).toEqual({
        code: 0,
        output: "Bundled dist/openapi.yaml and dist/openapi.json.\n",
      });
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});

/** The script of a checkout as npm runs it there (`npm run build:spec -- ARGS`): its exit code and all it printed. */
const runScript = (root: string, args: string[]) =>
  runCommand(process.execPath, ["--import", "tsx", path.join(root, "scripts", "build-spec.ts"), ...args], {
    cwd: root,
  });
