import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import type { RequestContext } from "../http/request-context.ts";
import { redactSecrets } from "../../lib/redact-secrets.ts";
import { secretsOf } from "../inputs/keys.ts";
import { RateLimiter } from "../http/rate-limits.ts";
import type { Clock } from "../http/wait-clock.ts";
import { RequestBudget, requestLimit } from "../http/request-budget.ts";
import type { SuiteSettings } from "./settings.ts";
import type { Target } from "../http/target.ts";
import { Transport } from "../http/transport.ts";
import type { StartupRead } from "./startup-read-record.ts";

export { RequestBudget, RequestBudgetError, requestLimit } from "../http/request-budget.ts";

/** What a run is given: every setting, the seed drawn, and the target resolved. */
export interface RunSettings {
  settings: SuiteSettings & { seed: number };
  target: Target;
  /** The runner's start-up read of a live server, for the first check to judge (run/startup-read.ts). */
  startupRead?: StartupRead | undefined;
  /** What the run's pace and its 429s are waited out by (default: real time). */
  waitClock?: Clock | undefined;
}

/**
 * Everything one run of the suite shares, passed explicitly to the transport and the checks: its settings, the
 * target, the spec, the request budget, the rate limiter and the connections. Nothing of a run lives in a global.
 */
export interface RunContext extends RunSettings, RequestContext {
  /** Redacts the key and its near misses from what a run prints or writes; checks judge what they received. */
  redact(text: string): string;
}

/** A fresh context for a run: its budget unspent, no 429 waited out, no connection open. */
export function createRunContext(run: RunSettings, spec: OpenApiValidator): RunContext {
  const { settings, target, startupRead } = run;
  return {
    settings,
    target,
    startupRead,
    spec,
    budget: new RequestBudget(requestLimit(target, settings), settings.requestsBefore),
    rateLimiter: new RateLimiter(settings.rateLimits, run.waitClock, startupRead?.waitedMs),
    transport: new Transport({ timeoutMs: settings.requestTimeoutMs, maxBytes: settings.maxResponseBytes }),
    // The target's key is read when a text is redacted: the mock's target gets its address (and key) after the context is made.
    redact: (text) => redactSecrets(text, secretsOf(target.apiKey)),
  };
}
