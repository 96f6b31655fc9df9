import { execFileSync } from "node:child_process";
import { cp, mkdtemp, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { trackedFiles } from "./tracked-files.ts";

/** A line of a JavaScript stack trace: "    at fn (file:line:col)" or "    at file:line:col". */
export const STACK_LINE = /^\s+at (?:.+ \()?(?:file:\/\/|node:|\/)[^)]*:\d+:\d+\)?$/m;

/**
 * A copy of the working tree as git sees it (tracked and new files, none ignored: no dist/, no reports/, no caches),
 * as a fresh clone right after `npm ci`: the repository's node_modules linked in, and the files as one commit.
 * Resolves with its folder, made in `parent`; the caller deletes it.
 */
export async function copyOfRepo(prefix: string, parent = os.tmpdir()): Promise<string> {
  const copy = await mkdtemp(path.join(parent, prefix));
  // A tracked file deleted in the working tree is absent from the copy, as it is from the tree; any other file that
  // cannot be copied stops the copy, for the packs and the commands run there would miss it in silence.
  const absent = (error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  };
  try {
    await Promise.all(
      trackedFiles().map((file) => cp(fromRoot(file), path.join(copy, file), { recursive: true }).catch(absent)),
    );
    await symlink(fromRoot("node_modules"), path.join(copy, "node_modules"), "dir");
    for (const args of [
      ["init", "-q"],
      ["add", "-A"],
      ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "copy"],
    ]) {
      execFileSync("git", args, { cwd: copy });
    }
    return copy;
  } catch (error) {
    await rm(copy, { recursive: true, force: true });
    throw error;
  }
}
