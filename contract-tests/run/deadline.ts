import { requestLimit } from "../http/request-budget.ts";
import type { SuiteSettings } from "./settings.ts";
import { liveTarget } from "./target.ts";

// Against the mock the budget is unlimited; no check of the suite sends anywhere near this many requests.
const MOST_REQUESTS_WITHOUT_BUDGET = 1_000;

/**
 * How long one check may run before the engine gives up on it: every request of the run's budget, each with its one
 * retry, each up to the request timeout, plus all the waiting for 429s the run allows. The per-request timeout is the real deadline (a slow machine or server
 * only makes each request slower, never more numerous); this only stops a suite that hangs.
 */
export function checkDeadlineMs(settings: SuiteSettings): number {
  let target: Parameters<typeof requestLimit>[0];
  try {
    target = liveTarget(settings) ?? { mode: "mock", writeChecks: true };
  } catch {
    // An incomplete target is reported by the runner and the global setup; here any finite deadline will do.
    target = { mode: "live", writeChecks: false };
  }
  const budget = requestLimit(target, settings);
  const requests = Number.isFinite(budget) ? budget : MOST_REQUESTS_WITHOUT_BUDGET;
  const attemptsPerRequest = 2;
  return requests * attemptsPerRequest * settings.requestTimeoutMs + settings.rateLimits.maxTotalWaitMs;
}
