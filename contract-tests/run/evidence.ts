import type { TestContext } from "vitest";
import type { Exchange } from "../http/exchange.ts";
import { oneLine } from "../../src/excerpt.ts";
import { curlFor } from "../http/curl.ts";
import type { CheckFailureRecord, ExchangeEvidence } from "../report/shapes.ts";

declare module "vitest" {
  interface TaskMeta {
    /** Every exchange the check made, in order. */
    exchanges?: ExchangeEvidence[];
    /** Contract warnings: the check passed, but something looked wrong. */
    warnings?: string[];
    /** The scenario check this test runs, on which operation. */
    scenario?: { check: string; operation: string };
    /** Every check that failed during this test (the scenario's own and the response checks'). */
    failures?: CheckFailureRecord[];
    /** How many inputs of each kind the check sent (its deterministic cases and its generated ones). */
    inputs?: Record<string, number>;
    /** Why the run stopped here (rate-limited past a cap): it cannot finish. */
    stopped?: string;
    /** Why this selected check did not run, though it applies to the target (budget spent, rate limits, a server gone). */
    notRun?: string;
    /** Why the metadata fails the schema, in one line, when it has the shape of the service's own document (serviceDocumentShape). */
    diagnosis?: string;
  }
}

const EXCERPT = 200;
let current: TestContext | undefined;

/** Remembers the running check, so that helpers without a context can attach evidence to it. */
export function setCurrentTest(context: TestContext | undefined): void {
  current = context;
}

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

/** Attaches an exchange to the running check. */
export function recordExchange(ex: Exchange): void {
  if (current) (current.task.meta.exchanges ??= []).push(evidenceOf(ex));
}

/** Attaches a warning to the running check. */
export function recordWarning(message: string): void {
  if (current) (current.task.meta.warnings ??= []).push(message);
}

/** Counts one input of a kind that the running check sent. */
export function recordInput(kind: string): void {
  if (!current) return;
  const inputs = (current.task.meta.inputs ??= {});
  inputs[kind] = (inputs[kind] ?? 0) + 1;
}

/** Records that the running check, selected and applicable, did not run, and why: the run then exits 2. */
export function recordNotRun(reason: string): void {
  if (current) current.task.meta.notRun = reason;
}

/** Records that the run stopped during the running check, and why. */
export function recordStop(reason: string): void {
  if (current) current.task.meta.stopped = reason;
}

/** Records a failed check on the running test (once per check and problem). */
export function recordFailure(failure: CheckFailureRecord): void {
  if (!current) return;
  const list = (current.task.meta.failures ??= []);
  if (!list.some((f) => f.check === failure.check && f.problem === failure.problem)) list.push(failure);
}

/** Records the one-line diagnosis of the metadata the running check received (the first it found is kept). */
export function recordDiagnosis(diagnosis: string): void {
  if (current) current.task.meta.diagnosis ??= diagnosis;
}
