import { oneLine } from "../../src/excerpt.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { jsonBody, type Exchange } from "../http/exchange.ts";
import { serviceDocumentShape } from "./service-document-shape.ts";
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
export function judgeAnswer(
  ex: Exchange,
  spec: OpenApiValidator,
  limits: JudgingLimits,
  selected: (check: string) => boolean = () => true,
): AnswerVerdict[] {
  const verdicts: AnswerVerdict[] = [];
  for (const check of responseChecks) {
    if (!selected(check.name)) continue;
    let found: ResponseFindings;
    try {
      found = check.inspect(ex, spec, limits);
    } catch (error) {
      found = {
        failures: [
          unexpected(error, `inspecting the answer HTTP ${ex.status} to ${ex.request.method} ${ex.request.path}`),
        ],
        warnings: [],
      };
    }
    if (found.failures.length > 0 || found.warnings.length > 0) verdicts.push({ check: check.name, ...found });
  }
  return verdicts;
}

/**
 * Why the metadata of a 200 to getFile fails the schema, in one line, when it is in the shape of the service's own
 * OpenAPI document (checks/service-document-shape.ts); undefined otherwise.
 */
export function answerDiagnosis(ex: Exchange): string | undefined {
  if (ex.operationId !== "getFile" || ex.status !== 200 || ex.invalidUtf8 !== undefined) return undefined;
  return serviceDocumentShape(jsonBody(ex));
}

/** What the response-check path finds in one answer: the diagnosis of its shape, and every verdict of the checks. */
export interface ResponseJudgement {
  diagnosis: string | undefined;
  verdicts: AnswerVerdict[];
}

/**
 * The one response-check path of the kit: the suite's engine (run/run-checks.ts) and the proxy's and replay's judge
 * (proxy/judge-traffic.ts) put every answer through it.
 */
export function judgeResponse(
  ex: Exchange,
  spec: OpenApiValidator,
  limits: JudgingLimits,
  selected?: (check: string) => boolean,
): ResponseJudgement {
  return { diagnosis: answerDiagnosis(ex), verdicts: judgeAnswer(ex, spec, limits, selected) };
}
