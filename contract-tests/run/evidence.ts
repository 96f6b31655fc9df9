import type { Exchange } from "../http/exchange.ts";
import { oneLine } from "../../src/excerpt.ts";
import { curlFor } from "../http/curl.ts";
import type { CheckFailureRecord, ExchangeEvidence } from "../report/shapes.ts";

const EXCERPT = 200;

/** The evidence of an exchange, short enough for a one-line report, the key redacted. */
export function evidenceOf(ex: Exchange): ExchangeEvidence {
  return {
    operationId: ex.operationId,
    curl: curlFor(ex.request),
    method: ex.request.method,
    path: ex.request.path,
    url: ex.request.url,
    status: ex.status,
    contentType: ex.headers.has("content-type") ? ex.redact(ex.headers.get("content-type")!) : null,
    // The answer is kept as received for the checks: what a report shows of it is redacted here.
    bodyExcerpt: ex.redact(oneLine(ex.text, EXCERPT)),
    ...(ex.failedAttempts.length > 0 ? { failedAttempts: ex.failedAttempts } : {}),
  };
}

/**
 * What one scenario check on one operation collected while it ran: made by the engine for each check and passed to
 * it (and to whatever judges its answers), never held in a global. The progress lines and the summary read it.
 */
export class CheckEvidence {
  /** Every exchange the check made, in order. */
  readonly exchanges: ExchangeEvidence[] = [];
  /** Contract warnings, each `operation check: message`: the check passed, but something looked wrong. */
  readonly warnings: string[] = [];
  /** Every check that failed during this one (its own failures, the response checks', a write held to the baseline). */
  readonly failures: CheckFailureRecord[] = [];
  /** How many inputs of each kind the check sent (its deterministic cases and its generated ones). */
  inputs: Record<string, number> | undefined;
  /** Why the run stopped here (rate-limited past a cap): it cannot finish. */
  stopped: string | undefined;
  /** Why this selected check did not run, though it applies to the target (budget spent, rate limits, a server gone). */
  notRun: string | undefined;
  /** Why the metadata fails the schema, in one line, when it has the shape of the service's own document. */
  diagnosis: string | undefined;

  constructor(
    /** The scenario check this evidence is of, on which operation. */
    readonly scenario: { check: string; operation: string },
  ) {}

  /** Attaches an exchange. */
  exchange(ex: Exchange): void {
    this.exchanges.push(evidenceOf(ex));
  }

  /** Attaches a warning. */
  warning(message: string): void {
    this.warnings.push(message);
  }

  /** Counts one input of a kind that the check sent. */
  input(kind: string): void {
    const inputs = (this.inputs ??= {});
    inputs[kind] = (inputs[kind] ?? 0) + 1;
  }

  /** Records a failed check (once per check and problem). */
  failure(failure: CheckFailureRecord): void {
    if (!this.failures.some((f) => f.check === failure.check && f.problem === failure.problem))
      this.failures.push(failure);
  }

  /** Records the one-line diagnosis of the metadata received (the first found is kept). */
  diagnose(diagnosis: string): void {
    this.diagnosis ??= diagnosis;
  }
}
