import { retryDelay, serverDelay } from "../../src/retry.ts";
import type { RateLimitSettings } from "./rate-limit-settings.ts";
import { type Clock, realClock } from "./wait-clock.ts";

export type { RateLimitSettings } from "./rate-limit-settings.ts";
export { type Clock, realClock } from "./wait-clock.ts";

/** The server rate-limited the run past a cap: it cannot finish (exit 2), which is not a contract failure. */
export class RateLimitedError extends Error {
  override name = "RateLimitedError";
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** Paces the run's requests and waits out its 429s, within the run's caps; one for the whole run. */
export class RateLimiter {
  private nextStart = Number.NEGATIVE_INFINITY;
  private waited: number;
  /** Why the run stopped, once a cap was passed; every later check is skipped with it. */
  stoppedBecause: string | undefined;

  /** `waitedBefore`: milliseconds the run waited out before this limiter was made (the runner's start-up read). */
  constructor(
    readonly settings: RateLimitSettings,
    private readonly clock: Clock = realClock,
    waitedBefore = 0,
  ) {
    this.waited = waitedBefore;
  }

  /** Milliseconds spent waiting out 429s so far. */
  get waitedMs(): number {
    return this.waited;
  }

  /** Resolves when the pace lets the next request go (at once without --rate-limit). */
  async pace(): Promise<void> {
    const { perSecond } = this.settings;
    if (perSecond === undefined) return;
    const now = this.clock.now();
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + 1000 / perSecond;
    if (start > now) await this.clock.sleep(start - now);
  }

  /**
   * Waits as long as a 429 asks (`retry-after-ms` or `Retry-After`; a backoff from 0.5 s when it says nothing),
   * or throws RateLimitedError when that passes a cap. An `essential` request (putting the file back) is held to
   * the cap per wait only: it is sent even when the run has waited its fill.
   */
  async waitOut(headers: Headers, retriesSoFar: number, essential = false): Promise<number> {
    const asked = serverDelay(headers) ?? retryDelay(retriesSoFar, undefined);
    const ms = Math.max(0, asked.ms);
    const { maxWaitMs, maxTotalWaitMs } = this.settings;
    if (ms > maxWaitMs) {
      throw this.stop(
        `it asked to wait ${seconds(ms)} (${asked.source}), over the cap of ${seconds(maxWaitMs)} per wait (FILE_LIBRARY_MAX_RETRY_WAIT_MS raises it)`,
      );
    }
    if (!essential && this.waited + ms > maxTotalWaitMs) {
      throw this.stop(
        `waiting out its 429s took ${seconds(this.waited)}, and the next wait of ${seconds(ms)} would pass the cap of ${seconds(maxTotalWaitMs)} per run (FILE_LIBRARY_MAX_TOTAL_WAIT_MS raises it)`,
      );
    }
    this.waited += ms;
    await this.clock.sleep(ms);
    return ms;
  }

  private stop(why: string): RateLimitedError {
    const pace = this.settings.perSecond !== undefined ? "a slower --rate-limit" : "--rate-limit N/s";
    this.stoppedBecause ??= `the server rate-limited the run: ${why}. Pace the run with ${pace}, or raise the cap.`;
    return new RateLimitedError(this.stoppedBecause);
  }
}
