import { execFileSync } from "node:child_process";
import os from "node:os";

/** Where the bench runs what: the load (this process) on some cores, the servers it measures on the others. */
export interface CorePlan {
  load: string;
  servers: string;
  /** Every core this process may use before pinning. */
  all: string;
  /** In words, for the report. */
  description: string;
}

const hasTaskset = () => {
  try {
    execFileSync("taskset", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/**
 * Splits the machine's cores between the load and the servers (with two cores, one each), so that they never take
 * turns on one core: that turn-taking is what made the bench's numbers move by a factor of two. `unpinned`, with the
 * reason, when the machine has one core or no `taskset`.
 */
export function corePlan(): CorePlan | { unpinned: string } {
  const cores = os.availableParallelism();
  if (cores < 2) return { unpinned: "one core: the load and the servers share it" };
  if (!hasTaskset()) return { unpinned: "no taskset (util-linux): the load and the servers are not pinned" };
  const half = Math.floor(cores / 2);
  const range = (from: number, to: number) => (from === to ? String(from) : `${from}-${to}`);
  const plan = { load: range(0, half - 1), servers: range(half, cores - 1), all: range(0, cores - 1) };
  return { ...plan, description: `load on core ${plan.load}, servers on core ${plan.servers} (taskset)` };
}

/**
 * Pins this process, every thread of it, to the load's cores; the returned function gives it every core again (so
 * that what it starts afterwards, like `npm run contract`, is not squeezed onto the load's cores).
 */
export function pinLoad(plan: CorePlan): () => void {
  const pin = (cores: string) =>
    execFileSync("taskset", ["-a", "-p", "-c", cores, String(process.pid)], { stdio: "ignore" });
  pin(plan.load);
  // Not os.availableParallelism(): once pinned, it counts only the load's cores.
  return () => pin(plan.all);
}

/** What to put in front of a server's command to run it on the servers' cores (nothing when unpinned). */
export function serverLauncher(plan: CorePlan | { unpinned: string }): string[] {
  return "servers" in plan ? ["taskset", "-c", plan.servers] : [];
}
