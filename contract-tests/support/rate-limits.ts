import { retryDelay, serverDelay } from "../../src/retry.ts";

/** The server rate-limited the run past a cap: it cannot finish (exit 2), which is not a contract failure. */
export class RateLimitedError extends Error {
  override name = "RateLimitedError";
}

/** A rate-limit setting is unusable: the run cannot start. */
export class RateLimitSettingError extends Error {
  override name = "RateLimitSettingError";
}

/** How the run paces itself and how long it may wait out 429s. */
export interface RateLimitSettings {
  /** The longest single wait accepted (FILE_LIBRARY_MAX_RETRY_WAIT_MS, default 10 s). */
  maxWaitMs: number;
  /** The most waiting a run accepts in all (FILE_LIBRARY_MAX_TOTAL_WAIT_MS, default 60 s). */
  maxTotalWaitMs: number;
  /** At most this many requests a second (--rate-limit / FILE_LIBRARY_RATE_LIMIT); Infinity: no pacing. */
  perSecond: number;
}

const PER = { s: 1, m: 60, h: 3600 } as const;

/** Reads a rate as Schemathesis writes it: `N/s`, `N/m` or `N/h`; resolves to requests per second. */
export function parseRate(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*\/\s*([smh])\s*$/.exec(text);
  const count = Number(match?.[1]);
  if (!match || !(count > 0)) {
    throw new RateLimitSettingError(`--rate-limit (FILE_LIBRARY_RATE_LIMIT) takes requests per second, minute or hour, such as 10/s or 300/m, got ${JSON.stringify(text)}`);
  }
  return count / PER[match[2] as keyof typeof PER];
}

/** The settings from the environment; throws RateLimitSettingError on a value it cannot use. */
export function rateLimitSettings(env: NodeJS.ProcessEnv = process.env): RateLimitSettings {
  const ms = (name: string, fallback: number) => {
    const text = env[name];
    if (text === undefined || text === "") return fallback;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0) throw new RateLimitSettingError(`${name} takes milliseconds (0 or more), got ${JSON.stringify(text)}`);
    return value;
  };
  return {
    maxWaitMs: ms("FILE_LIBRARY_MAX_RETRY_WAIT_MS", 10_000),
    maxTotalWaitMs: ms("FILE_LIBRARY_MAX_TOTAL_WAIT_MS", 60_000),
    perSecond: env.FILE_LIBRARY_RATE_LIMIT ? parseRate(env.FILE_LIBRARY_RATE_LIMIT) : Number.POSITIVE_INFINITY,
  };
}

/** Time as the limiter sees it: injectable, so that its logic is tested without waiting. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: Clock = { now: () => performance.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** Paces the run's requests and waits out its 429s, within the run's caps; one for the whole run. */
export class RateLimiter {
  private nextStart = Number.NEGATIVE_INFINITY;
  private waited = 0;
  /** Why the run stopped, once a cap was passed; every later check is skipped with it. */
  stoppedBecause: string | undefined;

  constructor(
    readonly settings: RateLimitSettings,
    private readonly clock: Clock = realClock,
  ) {}

  /** Milliseconds spent waiting out 429s so far. */
  get waitedMs(): number {
    return this.waited;
  }

  /** Resolves when the pace lets the next request go (at once without --rate-limit). */
  async pace(): Promise<void> {
    if (!Number.isFinite(this.settings.perSecond)) return;
    const now = this.clock.now();
    const start = Math.max(now, this.nextStart);
    this.nextStart = start + 1000 / this.settings.perSecond;
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
      throw this.stop(`it asked to wait ${seconds(ms)} (${asked.source}), over the cap of ${seconds(maxWaitMs)} per wait (FILE_LIBRARY_MAX_RETRY_WAIT_MS raises it)`);
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
    const pace = Number.isFinite(this.settings.perSecond) ? "a slower --rate-limit" : "--rate-limit N/s";
    this.stoppedBecause ??= `the server rate-limited the run: ${why}. Pace the run with ${pace}, or raise the cap.`;
    return new RateLimitedError(this.stoppedBecause);
  }
}
