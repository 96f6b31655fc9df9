import { spawn, type ChildProcess } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { fromRoot, repoRoot } from "../../scripts/lib/paths.ts";

/** Starts one of our TypeScript scripts under node with tsx's loader (no wrapper process in between). */
export function startScript(script: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", fromRoot(script), ...args], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Resolves with the first match of `pattern` in the child's output; rejects if it exits first. */
export function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) resolve(match);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`exited (${code}) before printing ${pattern}:\n${output}`)));
  });
}

/** Resolves with the exit code (or signal) once the child has exited. */
export function exitOf(child: ChildProcess): Promise<number | NodeJS.Signals> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal!)));
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
