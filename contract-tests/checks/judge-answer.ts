import { oneLine } from "../../src/excerpt.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import type { Exchange } from "../http/exchange.ts";
import { responseChecks } from "./catalogue.ts";
import type { JudgingLimits, ResponseFindings } from "./types.ts";

/** What one response check found in one answer. */
export interface AnswerVerdict extends ResponseFindings {
  check: string;
}

/** An error a check did not expect, in one line: where it stopped, and the error (no stack trace). */
export const unexpected = (error: unknown, doing: string): string =>
  `the check stopped on an unexpected error while ${doing}: ${oneLine(error instanceof Error ? `${error.name}: ${error.message}` : String(error), 300)}`;

/**
 * Puts an answer through every response check that `selected` lets through: the one way the suite and the proxy
 * judge an answer. A check that throws is reported as its own failure, in one line: an answer a check could not
 * handle is a finding, not a crash. Only checks that found something are returned.
 */
export function judgeAnswer(ex: Exchange, spec: OpenApiValidator, limits: JudgingLimits, selected: (check: string) => boolean = () => true): AnswerVerdict[] {
  const verdicts: AnswerVerdict[] = [];
  for (const check of responseChecks) {
    if (!selected(check.name)) continue;
    let found: ResponseFindings;
    try {
      found = check.inspect(ex, spec, limits);
    } catch (error) {
      found = { failures: [unexpected(error, `inspecting the answer HTTP ${ex.status} to ${ex.request.method} ${ex.request.path}`)], warnings: [] };
    }
    if (found.failures.length > 0 || found.warnings.length > 0) verdicts.push({ check: check.name, ...found });
  }
  return verdicts;
}
