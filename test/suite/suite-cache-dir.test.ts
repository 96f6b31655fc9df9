// covers: contract-tests/run/cache-dir.ts
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { suiteCacheDir } from "../../contract-tests/run/cache-dir.ts";

// vitest empties its module cache when another lockfile's metadata is there: two installs of the suite sharing one
// folder (the repo's and a packed copy, run side by side by npm test) failed each other's runs with ENOENT.
describe("the contract suite's cache folder", () => {
  let root: string;
  const suite = (project: string) => path.join(root, project, "node_modules/file-library-contract/dist");
  const lockfile = (project: string) => path.join(root, project, "node_modules/.package-lock.json");

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "suite-cache-dir-"));
    for (const project of ["a", "b"]) {
      await mkdir(suite(project), { recursive: true });
      await writeFile(lockfile(project), `{"name":"${project}"}`);
    }
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("is in the temp folder given, and the same for the same install", () => {
    const dir = suiteCacheDir(suite("a"), "/scratch");
    expect(path.dirname(dir)).toBe(path.join("/scratch", "file-library-contract-cache"));
    expect(suiteCacheDir(suite("a"), "/scratch")).toBe(dir);
  });

  it("differs between two copies of the suite", () => {
    expect(suiteCacheDir(suite("a"))).not.toBe(suiteCacheDir(suite("b")));
  });

  it("changes when the install's lockfile changes", async () => {
    const before = suiteCacheDir(suite("a"));
    await writeFile(lockfile("a"), `{"name":"a","lockfileVersion":3}`);
    expect(suiteCacheDir(suite("a"))).not.toBe(before);
  });
});
