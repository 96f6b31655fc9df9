import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import type { RateLimiter } from "./rate-limits.ts";
import type { RequestBudget } from "./request-budget.ts";
import type { Target } from "./target.ts";
import type { Transport } from "./transport.ts";

/**
 * What a request of the run goes out with: the target, the spec that names each operation's method and path, the
 * request budget, the rate limiter and the connections. The run's context is one (run/run-context.ts); the checks and
 * the exchange see only this.
 */
export interface RequestContext {
  target: Target;
  spec: OpenApiValidator;
  budget: RequestBudget;
  rateLimiter: RateLimiter;
  transport: Transport;
}
