// Plain data, apart from the limiter: the published types of runSuite's options name it, and need no Headers.
/** How the run paces itself and how long it may wait out 429s. */
export interface RateLimitSettings {
  /** The longest single wait accepted. */
  maxWaitMs: number;
  /** The most waiting a run accepts in all. */
  maxTotalWaitMs: number;
  /** At most this many requests a second; undefined: no pacing. */
  perSecond: number | undefined;
}
