// covers: lib/process.ts
import { describe, expect, it } from "vitest";
import { exitCodeOf, startChild } from "../../lib/process.ts";

/** A child that ends itself with `signal`: its exit code, as lib/process reports it. */
const endedBy = (signal: string) =>
  exitCodeOf(
    startChild(process.execPath, ["-e", `process.kill(process.pid, "${signal}"); setTimeout(() => {}, 10_000)`], {
      stdio: "ignore",
    }),
  );

describe("lib/process: a child's exit code as a shell reports it", { timeout: 30_000 }, () => {
  // 128 + the signal's number, for any signal: SIGKILL and SIGSEGV ended the proxy's command with 128 before.
  it.each([
    ["SIGKILL", 137],
    ["SIGSEGV", 139],
    ["SIGTERM", 143],
    ["SIGINT", 130],
    ["SIGABRT", 134],
  ])("a child ended by %s exits %i", async (signal, code) => {
    expect(await endedBy(signal)).toBe(code);
  });

  it("a child that exits with a code gives that code", async () => {
    expect(await exitCodeOf(startChild(process.execPath, ["-e", "process.exit(7)"], { stdio: "ignore" }))).toBe(7);
  });
});
