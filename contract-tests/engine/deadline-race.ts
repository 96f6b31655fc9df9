/** The clock the engine times its checks by: injectable, so that a test decides when a deadline passes. */
export interface EngineClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

/** A check ran past its deadline (run/deadline.ts). */
export class DeadlineError extends Error {
  override name = "DeadlineError";
}

/**
 * Resolves as `work` does, unless `ms` pass first (it rejects with DeadlineError) or the signal aborts (it rejects
 * with its reason). The work itself is not stopped: its requests end by their own timeout.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, clock: EngineClock, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(
      () => reject(new DeadlineError(`the check did not finish within its deadline of ${ms} ms`)),
      ms,
    );
    const abort = () => reject(signal!.reason);
    signal?.addEventListener("abort", abort, { once: true });
    const done = () => {
      clock.clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
    };
    work.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}
