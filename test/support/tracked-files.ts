import { execFileSync } from "node:child_process";
import { repoRoot } from "../../scripts/lib/paths.ts";

/** The repository's files as git sees the working tree: tracked ones and new ones it does not ignore (no dist/, no caches). */
export function trackedFiles(...pathspecs: string[]): string[] {
  return execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z", ...pathspecs], {
    cwd: repoRoot,
    encoding: "utf8",
  })
    .split("\0")
    .filter(Boolean);
}
