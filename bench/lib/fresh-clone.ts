import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { repoRoot } from "../../scripts/lib/paths.ts";
import { stepCacheDir } from "../../scripts/lib/step-cache.ts";

/** What a fresh clone has not, right after `npm ci`: the builds, the reports, the steps' records, vitest's caches. */
export const BUILT = ["dist", "reports", "node_modules/.vite", "node_modules/.vite-temp", path.relative(repoRoot, stepCacheDir)];

/**
 * Runs `work` in the state of a fresh clone: none of BUILT under `root`, and an empty temporary directory (where tsx
 * and vitest keep their compiled files) in `work`'s environment. BUILT is moved aside, not deleted, and put back as it
 * was once `work` ends, whatever it left there: a bench run keeps the builds and reports it found.
 */
export async function asFreshClone<T>(env: NodeJS.ProcessEnv, work: (env: NodeJS.ProcessEnv) => Promise<T>, root = repoRoot): Promise<T> {
  // Beside the repo's own files, so that a move is a rename on the same file system.
  const cache = path.join(root, "node_modules", ".cache");
  await mkdir(cache, { recursive: true });
  const aside = await mkdtemp(path.join(cache, "file-library-bench-aside-"));
  const moved = await Promise.all(
    BUILT.map(async (dir, i) => {
      if (!existsSync(path.join(root, dir))) return false;
      await rename(path.join(root, dir), path.join(aside, String(i)));
      return true;
    }),
  );
  const tmp = await mkdtemp(path.join(os.tmpdir(), "file-library-cold-"));
  try {
    return await work({ ...env, TMPDIR: tmp, TMP: tmp, TEMP: tmp });
  } finally {
    await Promise.all(
      BUILT.map(async (dir, i) => {
        await rm(path.join(root, dir), { recursive: true, force: true });
        if (moved[i]) await rename(path.join(aside, String(i)), path.join(root, dir));
      }),
    );
    await Promise.all([rm(aside, { recursive: true, force: true }), rm(tmp, { recursive: true, force: true })]);
  }
}
