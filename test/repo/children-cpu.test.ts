// covers: bench/lib/children-cpu.ts
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { childrenCpuSeconds } from "../../bench/lib/children-cpu.ts";

// A child that spins until its own count says it has used this much CPU, then exits.
const SPIN_MS = 300;
const spinner = `const t = process.cpuUsage(); for (;;) { const u = process.cpuUsage(t); if (u.user + u.system >= ${SPIN_MS * 1000}) break; }`;

describe("the CPU of the bench's child processes", () => {
  it.runIf(existsSync("/proc/self/stat"))("counts what an ended child used, and a grandchild it waited for", () => {
    const before = childrenCpuSeconds()!;
    execFileSync(process.execPath, ["-e", spinner]);
    const afterChild = childrenCpuSeconds()!;
    // A child that starts another and waits for it: the kernel adds the grandchild's CPU to the child's count.
    execFileSync(process.execPath, ["-e", `require("node:child_process").execFileSync(process.execPath, ["-e", ${JSON.stringify(spinner)}])`]);
    const afterGrandchild = childrenCpuSeconds()!;
    // At least what the spinner used by its own count (the kernel counts in ticks of 10 ms), plus node's start-up.
    expect(afterChild - before).toBeGreaterThanOrEqual(SPIN_MS / 1000 - 0.01);
    expect(afterGrandchild - afterChild).toBeGreaterThanOrEqual(SPIN_MS / 1000 - 0.01);
  });

  it.runIf(existsSync("/proc/self/stat"))("does not count this process's own CPU", () => {
    const before = childrenCpuSeconds()!;
    const t = process.cpuUsage();
    while (process.cpuUsage(t).user < SPIN_MS * 1000);
    expect(childrenCpuSeconds()! - before).toBeLessThan(0.05);
  });
});
