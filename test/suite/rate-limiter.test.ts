// covers: contract-tests/http/rate-limits.ts, contract-tests/http/rate-limit-settings.ts
import { describe, expect, it } from "vitest";
import { RateLimitedError, RateLimiter, type Clock } from "../../contract-tests/http/rate-limits.ts";
import type { RateLimitSettings } from "../../contract-tests/http/rate-limits.ts";
import { parseRate, readSettings, SettingError } from "../../contract-tests/run/settings.ts";

/** A clock that only moves when the limiter sleeps, recording each sleep. */
function fakeClock(): Clock & { sleeps: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

const settings = (overrides: Partial<RateLimitSettings> = {}): RateLimitSettings => ({
  maxWaitMs: 10_000,
  maxTotalWaitMs: 60_000,
  perSecond: undefined,
  ...overrides,
});
const headers = (values: Record<string, string>) => new Headers(values);

describe("the contract suite's rate limiter", () => {
  it("paces requests to --rate-limit, and not at all without it", async () => {
    const clock = fakeClock();
    const paced = new RateLimiter(settings({ perSecond: 10 }), clock);
    for (let i = 0; i < 4; i++) await paced.pace();
    expect(clock.sleeps).toEqual([100, 100, 100]);

    const free = fakeClock();
    const unpaced = new RateLimiter(settings(), free);
    for (let i = 0; i < 4; i++) await unpaced.pace();
    expect(free.sleeps).toEqual([]);
  });

  it("waits as long as a 429 asks: retry-after-ms, Retry-After in seconds, and a backoff from 0.5 s when it says nothing", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(settings(), clock);
    await limiter.waitOut(headers({ "retry-after-ms": "250" }), 0);
    await limiter.waitOut(headers({ "retry-after": "2" }), 1);
    await limiter.waitOut(headers({}), 0);
    expect(clock.sleeps.slice(0, 2)).toEqual([250, 2000]);
    expect(clock.sleeps[2]).toBeGreaterThanOrEqual(375);
    expect(clock.sleeps[2]).toBeLessThanOrEqual(500);
    expect(limiter.waitedMs).toBe(2250 + clock.sleeps[2]!);
  });

  // The client's reading (src/retry.ts): "-5", "+5" and "1." are no wait RFC 9110 knows, so the backoff decides.
  it.each(["-5", "+5", "1."])("waits the backoff (375 to 500 ms) after Retry-After: %s", async (retryAfter) => {
    const clock = fakeClock();
    const limiter = new RateLimiter(settings(), clock);
    await limiter.waitOut(headers({ "retry-after": retryAfter }), 0);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(375);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(500);
  });

  it("stops the run, without waiting, when one wait would pass the cap per wait", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(settings({ maxWaitMs: 10_000 }), clock);
    await expect(limiter.waitOut(headers({ "retry-after": "30" }), 0)).rejects.toThrow(RateLimitedError);
    expect(clock.sleeps).toEqual([]);
    expect(limiter.stoppedBecause).toBe(
      "the server rate-limited the run: it asked to wait 30 s (retry-after), over the cap of 10 s per wait (FILE_LIBRARY_MAX_RETRY_WAIT_MS raises it). Pace the run with --rate-limit N/s, or raise the cap.",
    );
  });

  it("stops the run when the waits would pass the cap per run, except for an essential request (putting the file back)", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(settings({ maxTotalWaitMs: 3_000 }), clock);
    await limiter.waitOut(headers({ "retry-after": "2" }), 0);
    await expect(limiter.waitOut(headers({ "retry-after": "2" }), 0)).rejects.toThrow(
      /waiting out its 429s took 2\.0 s, and the next wait of 2\.0 s would pass the cap of 3\.0 s per run \(FILE_LIBRARY_MAX_TOTAL_WAIT_MS raises it\)/,
    );
    await limiter.waitOut(headers({ "retry-after": "2" }), 0, true);
    expect(clock.sleeps).toEqual([2000, 2000]);
  });

  it("counts the waits before it was made (the start-up read's) against the cap per run", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(settings({ maxTotalWaitMs: 3_000 }), clock, 2_000);
    await expect(limiter.waitOut(headers({ "retry-after": "2" }), 0)).rejects.toThrow(
      /waiting out its 429s took 2\.0 s, and the next wait of 2\.0 s would pass the cap of 3\.0 s per run/,
    );
    expect(clock.sleeps).toEqual([]);
  });

  it("reads --rate-limit as Schemathesis writes it, and refuses what it cannot use", () => {
    expect(parseRate("10/s")).toBe(10);
    expect(parseRate("300/m")).toBe(5);
    expect(parseRate("3600/h")).toBe(1);
    for (const bad of ["10", "0/s", "ten/s", "5/d", "-1/s"]) expect(() => parseRate(bad)).toThrow(SettingError);
    expect(readSettings({}).rateLimits).toEqual({ maxWaitMs: 10_000, maxTotalWaitMs: 60_000, perSecond: undefined });
    expect(
      readSettings({ FILE_LIBRARY_RATE_LIMIT: "120/m", FILE_LIBRARY_MAX_TOTAL_WAIT_MS: "5000" }).rateLimits,
    ).toMatchObject({ perSecond: 2, maxTotalWaitMs: 5000 });
    expect(() => readSettings({ FILE_LIBRARY_MAX_RETRY_WAIT_MS: "soon" })).toThrow(
      /^FILE_LIBRARY_MAX_RETRY_WAIT_MS takes a number of at least 0, got "soon"$/,
    );
  });
});
