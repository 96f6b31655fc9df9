import { existsSync } from "node:fs";
import { mkdtemp, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../../scripts/lib/paths.ts";
import { stepCacheDir } from "../../scripts/lib/step-cache.ts";

/** What a fresh clone has not, right after `npm ci`: the builds, the reports, the compiled suite, the steps' records, vitest's caches. */
export const BUILT = [
  "dist",
  "reports",
  "node_modules/.vite",
  "node_modules/.vite-temp",
  "node_modules/.cache/file-library-contract",
  path.relative(repoRoot, stepCacheDir),
];

/**
 * Runs `work` in the state of a fresh clone: none of BUILT under `root`, and an empty temporary directory (where tsx
 * and vitest keep their compiled files) in `work`'s environment. BUILT is moved aside, not deleted, and put back as it
 * was once `work` ends, whatever it left there: a bench run keeps the builds and reports it found.
 */
export async function asFreshClone<T>(
  env: NodeJS.ProcessEnv,
  work: (env: NodeJS.ProcessEnv) => Promise<T>,
  root = repoRoot,
): Promise<T> {
  // Each beside itself: a rename within one folder never crosses file systems (node_modules is often a mount of its own).
  const aside = (dir: string) => path.join(root, `${dir}.bench-aside-${process.pid}`);
  // The folders cleared (moved aside, or absent): what stands there afterwards is the run's, and goes.
  const cleared: Array<{ dir: string; moved: boolean }> = [];
  const tmp = await mkdtemp(path.join(os.tmpdir(), "file-library-cold-"));
  try {
    for (const dir of BUILT) {
      const moved = existsSync(path.join(root, dir));
      if (moved) await rename(path.join(root, dir), aside(dir));
      cleared.push({ dir, moved });
    }
    return await work({ ...env, TMPDIR: tmp, TMP: tmp, TEMP: tmp });
  } finally {
    // Also when a move failed half-way: what was moved goes back, and what was not is left as it is.
    for (const { dir, moved } of cleared) {
      await rm(path.join(root, dir), { recursive: true, force: true });
      if (moved) await rename(aside(dir), path.join(root, dir));
    }
    await rm(tmp, { recursive: true, force: true });
  }
}
