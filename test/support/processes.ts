import type { ChildProcess } from "node:child_process";
import { startChild } from "../../lib/process.ts";
import { readdir, readFile } from "node:fs/promises";
import { fromRoot, repoRoot } from "../../scripts/lib/paths.ts";

/** Starts one of our TypeScript scripts under node with tsx's loader (no wrapper process in between); it ends with the test run at the latest. */
export function startScript(script: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  return startChild(process.execPath, ["--import", "tsx", fromRoot(script), ...args], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Whether a process with this id still exists. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once the process is gone (polled every 25 ms); rejects after `timeoutMs`. */
export async function waitUntilGone(pid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} is still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The ids of the processes whose parent is `pid` (from /proc: Linux). */
export async function childrenOf(pid: number): Promise<number[]> {
  const ids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  const parents = await Promise.all(
    ids.map(async (id) => {
      // The command name in field 2 is in parentheses and may hold spaces: the parent id comes after its ")".
      const stat = await readFile(`/proc/${id}/stat`, "utf8").catch(() => "");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    }),
  );
  return ids.filter((_, i) => parents[i] === pid).map(Number);
}

/** The command line of a process, its arguments joined by spaces (from /proc: Linux); "" once it is gone. */
export async function commandLineOf(pid: number): Promise<string> {
  return (await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")).split("\0").join(" ").trim();
}
