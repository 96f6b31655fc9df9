/**
 * Time as a run waits it (its pace, the 429s it waits out): injectable, so that a test proves a rate-limited run without
 * waiting. A module of its own, with no other type in it, because runSuite's published types name it.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** Real time: what every run waits by, unless its runner gives another (a test's virtual clock). */
export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
