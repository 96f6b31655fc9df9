import { contentTypeConformance } from "../checks/content-type-conformance.ts";
import { responseSchemaConformance } from "../checks/response-schema-conformance.ts";
import { statusCodeConformance } from "../checks/status-code-conformance.ts";
import type { OperationId } from "../checks/types.ts";
import { truncate } from "../../src/excerpt.ts";
import type { Exchange } from "../http/exchange.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";

/** Which statuses a check expects: one, several, or any documented one (undefined). */
export type ExpectedStatus = number | readonly number[] | undefined;

const BODY_EXCERPT = 300;
const CONFORMANCE = [statusCodeConformance, contentTypeConformance, responseSchemaConformance];

/** Every way the exchange breaks the operation's contract (status, content type, body schema); empty when it keeps it. */
export function contractProblems(
  spec: OpenApiValidator,
  ex: Exchange,
  operationId: OperationId,
  expected: ExpectedStatus,
): string[] {
  const problems: string[] = [];
  const wanted = expected === undefined ? undefined : ([] as number[]).concat(expected);
  if (wanted && !wanted.includes(ex.status)) problems.push(`status ${ex.status}, expected ${wanted.join(" or ")}`);
  for (const check of CONFORMANCE) problems.push(...check.inspect({ ...ex, operationId }, spec).failures);
  return problems;
}

/** The request and answer, as evidence for a failure report (the key is already redacted). */
export function describeExchange(ex: Exchange): string {
  const body = truncate(ex.text, BODY_EXCERPT);
  const headers = Object.entries(ex.request.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("; ");
  return [
    `  request:  ${ex.request.method} ${ex.request.path}${headers ? ` (${headers})` : ""}${ex.request.body === undefined ? "" : ` body ${ex.request.body}`}`,
    `  response: ${ex.status}, content-type ${ex.headers.get("content-type") ?? "(none)"}, body ${body === "" ? "<empty>" : JSON.stringify(body)}`,
  ].join("\n");
}

/** A vitest matcher, `expect(exchange).toMatchOperation(operationId, status?)`, for tests of your own (register it with `expect.extend`). */
export function toMatchOperation(
  spec: OpenApiValidator,
  ex: Exchange,
  operationId: OperationId,
  expected?: ExpectedStatus,
) {
  const problems = contractProblems(spec, ex, operationId, expected);
  const pass = problems.length === 0;
  const headline = `${operationId} → ${ex.status} ${ex.mediaType || "(no content type)"}`;
  return {
    pass,
    message: () =>
      pass
        ? `${headline} keeps the contract, expected it not to`
        : `${headline} breaks the contract:\n${problems.map((p) => `  - ${p}`).join("\n")}\n${describeExchange(ex)}`,
  };
}
