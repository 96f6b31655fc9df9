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

/** Every process below `pid`, children first-level and deeper (from /proc: Linux). */
export async function descendantsOf(pid: number): Promise<number[]> {
  const children = await childrenOf(pid);
  return [...children, ...(await Promise.all(children.map(descendantsOf))).flat()];
}

/**
 * Samples the peak memory of a process and everything below it, every 50 ms until `stop()`: the sum over every
 * process seen of its own peak (VmHWM), an upper bound of what the tree held at once. Resolves `stop()` with MB.
 */
export function sampleTreePeak(pid: number): { stop(): Promise<number> } {
  const peaks = new Map<number, number>();
  const sample = async () => {
    for (const id of [pid, ...(await descendantsOf(pid))]) {
      const status = await readFile(`/proc/${id}/status`, "utf8").catch(() => "");
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
      peaks.set(id, Math.max(peaks.get(id) ?? 0, kb));
    }
  };
  let running = sample();
  const timer = setInterval(() => (running = running.then(sample)), 50);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      return [...peaks.values()].reduce((sum, kb) => sum + kb, 0) / 1024;
    },
  };
}
