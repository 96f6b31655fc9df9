// covers: bench/lib/children-cpu.ts
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fromRoot } from "../../scripts/lib/paths.ts";

// A process that spins until its own count says it has used this much CPU.
const SPIN_MS = 300;
const spin = `const t = process.cpuUsage(); for (;;) { const u = process.cpuUsage(t); if (u.user + u.system >= ${SPIN_MS * 1000}) break; }`;

/**
 * The measurements run in a process of their own: the count is the whole process's, and a test worker's process also
 * ends the children of other test files at any moment.
 */
function measureInOwnProcess(): { self: number; child: number; grandchild: number } {
  const script = `
    import { execFileSync } from "node:child_process";
    import { childrenCpuSeconds } from ${JSON.stringify(fromRoot("bench/lib/children-cpu.ts"))};
    const start = childrenCpuSeconds();
    ${spin}
    const afterSelf = childrenCpuSeconds();
    execFileSync(process.execPath, ["-e", ${JSON.stringify(spin)}]);
    const afterChild = childrenCpuSeconds();
    // A child that starts another and waits for it: the kernel adds the grandchild's CPU to the child's count.
    execFileSync(process.execPath, ["-e", 'require("node:child_process").execFileSync(process.execPath, ["-e", ' + JSON.stringify(${JSON.stringify(spin)}) + '])']);
    const afterGrandchild = childrenCpuSeconds();
    console.log(JSON.stringify({ self: afterSelf - start, child: afterChild - afterSelf, grandchild: afterGrandchild - afterChild }));
  `;
  return JSON.parse(
    execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: fromRoot(),
      encoding: "utf8",
    }),
  );
}

describe("the CPU of the bench's child processes", () => {
  it.runIf(existsSync("/proc/self/stat"))(
    "counts what an ended child used, and a grandchild it waited for, never the process's own",
    () => {
      const { self, child, grandchild } = measureInOwnProcess();
      expect(self).toBeLessThan(0.05);
      // At least what the spinner used by its own count (the kernel counts in ticks of 10 ms), plus node's start-up.
      expect(child).toBeGreaterThanOrEqual(SPIN_MS / 1000 - 0.01);
      expect(grandchild).toBeGreaterThanOrEqual(SPIN_MS / 1000 - 0.01);
    },
  );
});
