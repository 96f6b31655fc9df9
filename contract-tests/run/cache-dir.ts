import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// The lockfiles vitest reads to tell whether its module cache is still good (npm, yarn, pnpm, bun).
const LOCKFILES = ["node_modules/.package-lock.json", "node_modules/.yarn-state.yml", "node_modules/.pnpm/lock.yaml", ".pnp.cjs", "bun.lock", "bun.lockb"];

/**
 * Where vitest keeps its caches for the suite in `suiteDir`: the temp folder (installed packages may be read-only),
 * one folder per copy of the suite and per lockfile. vitest empties its module cache when it finds another
 * lockfile's there, and emptying it under a run that reads it at the same time fails that run (ENOENT).
 */
export function suiteCacheDir(suiteDir: string, tmpDir = os.tmpdir()): string {
  const key = createHash("sha256").update(suiteDir);
  const lockfile = nearestLockfile(suiteDir);
  if (lockfile) key.update(readFileSync(lockfile));
  return path.join(tmpDir, "file-library-contract-cache", key.digest("hex").slice(0, 16));
}

function nearestLockfile(dir: string): string | undefined {
  for (let at = dir; ; at = path.dirname(at)) {
    const found = LOCKFILES.map((name) => path.join(at, name)).find((file) => existsSync(file));
    if (found || path.dirname(at) === at) return found;
  }
}
