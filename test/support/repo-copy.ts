import { execFileSync } from "node:child_process";
import { cp, mkdtemp, symlink } from "node:fs/promises";
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
  await Promise.all(trackedFiles().map((file) => cp(fromRoot(file), path.join(copy, file), { recursive: true }).catch(() => undefined)));
  await symlink(fromRoot("node_modules"), path.join(copy, "node_modules"), "dir");
  for (const args of [["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "copy"]]) {
    execFileSync("git", args, { cwd: copy });
  }
  return copy;
}
