import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;

/**
 * CPU seconds (user and system) of every child process this one has started and that has ended, with their own
 * children that they waited for: the kernel's count (/proc/self/stat, cutime and cstime). The difference around a
 * command is what all its processes cost, Prism's and vitest's threads included. Undefined where there is no /proc.
 */
export function childrenCpuSeconds(): number | undefined {
  try {
    // Asked before the count is read: getconf is a child too, and once it has ended its CPU is in the count.
    ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" })) || 100;
    const stat = readFileSync("/proc/self/stat", "utf8");
    // The fields after the command's name, which is in parentheses and may hold spaces: cutime and cstime are the
    // 16th and 17th fields of the line, the 14th and 15th after the name.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}
