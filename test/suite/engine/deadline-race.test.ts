import { describe, expect, it } from "vitest";
import { DeadlineError, withDeadline, type EngineClock } from "../../../contract-tests/engine/deadline-race.ts";

/** A clock whose timers fire only when the test says. */
function manualClock() {
  const timers = new Map<number, () => void>();
  let next = 0;
  const clock: EngineClock = {
    now: () => 0,
    setTimeout: (callback) => (timers.set(++next, callback), next),
    clearTimeout: (timer) => void timers.delete(timer as number),
  };
  return { clock, timers, fire: () => [...timers.values()].forEach((f) => f()) };
}

describe("withDeadline", () => {
  it("resolves as the work does, and clears its timer", async () => {
    const { clock, timers } = manualClock();
    await expect(withDeadline(Promise.resolve("done"), 1_000, clock)).resolves.toBe("done");
    expect(timers.size).toBe(0);
  });

  it("rejects with DeadlineError, naming the deadline, when the time passes first", async () => {
    const { clock, fire } = manualClock();
    const racing = withDeadline(new Promise(() => {}), 1_500, clock);
    fire();
    await expect(racing).rejects.toThrow(DeadlineError);
    await expect(racing).rejects.toThrow("deadline of 1500 ms");
  });

  it("rejects with the signal's reason when it aborts, and with the work's error when it fails", async () => {
    const { clock } = manualClock();
    const controller = new AbortController();
    const racing = withDeadline(new Promise(() => {}), 1_000, clock, controller.signal);
    controller.abort(new Error("stopped"));
    await expect(racing).rejects.toThrow("stopped");
    await expect(withDeadline(Promise.reject(new Error("broke")), 1_000, clock)).rejects.toThrow("broke");
  });
});
