/**
 * A clock for a run's waits whose sleeps end at once and move its time on by what they slept: a rate-limited run is
 * proven without waiting its Retry-After, and its caps still hold, measured on this time (runSuite's `waitClock`).
 */
export function virtualClock(): { now(): number; sleep(ms: number): Promise<void>; readonly slept: number } {
  let slept = 0;
  return {
    now: () => performance.now() + slept,
    sleep: async (ms) => {
      slept += ms;
    },
    get slept() {
      return slept;
    },
  };
}
