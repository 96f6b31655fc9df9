import { describe, expect, it } from "vitest";
import { realClock } from "../../contract-tests/http/wait-clock.ts";

describe("wait-clock", () => {
  it("the real clock's sleep waits at least what it is asked, on the real time it reads", async () => {
    const started = realClock.now();
    await realClock.sleep(20);
    expect(realClock.now() - started).toBeGreaterThanOrEqual(19);
  });
});
