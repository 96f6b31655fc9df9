import { afterEach, describe, expect, it, vi } from "vitest";
import { realClock } from "../../contract-tests/http/wait-clock.ts";

afterEach(() => void vi.useRealTimers());

describe("wait-clock", () => {
  it("the real clock's sleep ends when its time has passed, not before", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
    const started = realClock.now();
    let ended = false;
    const sleeping = realClock.sleep(1_000).then(() => (ended = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(realClock.now() - started).toBe(1_000);
  });
});
