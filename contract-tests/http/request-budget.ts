import type { Target } from "./target.ts";

/** The run sent as many requests as it may (FILE_LIBRARY_MAX_REQUESTS). */
export class RequestBudgetError extends Error {
  override name = "RequestBudgetError";
}

/** The most requests a run may send: FILE_LIBRARY_MAX_REQUESTS, else 100 for a read-only live run, 300 with write checks, none against the mock. */
export function requestLimit(
  target: Pick<Target, "mode" | "writeChecks">,
  settings: { maxRequests?: number | undefined },
): number {
  if (settings.maxRequests !== undefined) return settings.maxRequests;
  if (target.mode === "mock") return Number.POSITIVE_INFINITY;
  return target.writeChecks ? 300 : 100;
}

/** Counts the run's requests, retries included, against its limit. */
export class RequestBudget {
  private taken: number;

  /** `spent`: requests the run sent before this budget was made (the runner's preflight read). */
  constructor(
    readonly limit: number,
    spent = 0,
  ) {
    this.taken = spent;
  }

  /** How many requests the run has sent so far. */
  get sent(): number {
    return this.taken;
  }

  /** Counts one request; throws RequestBudgetError when the budget is spent. */
  take(): void {
    if (this.taken >= this.limit)
      throw new RequestBudgetError(
        `the run's request budget of ${this.limit} is spent (FILE_LIBRARY_MAX_REQUESTS raises it)`,
      );
    this.taken++;
  }
}
