import { isJsonMediaType, type OpenApiValidator } from "./openapi-validator.ts";
import type { Exchange } from "./exchange.ts";
import { warn } from "./warn.ts";

/** Which statuses a check expects: one, several, or any documented one (undefined). */
export type ExpectedStatus = number | readonly number[] | undefined;

const BODY_EXCERPT = 300;
// The spec documents the update's 200 with no body; these are the empty answers servers really send.
const EMPTY_BODIES = new Set(["", "null", "{}"]);

/** Every way the exchange breaks the operation's contract; empty when it keeps it. */
export function contractProblems(spec: OpenApiValidator, ex: Exchange, operationId: string, expected: ExpectedStatus): string[] {
  const problems: string[] = [];
  const wanted = expected === undefined ? undefined : ([] as number[]).concat(expected);
  if (wanted && !wanted.includes(ex.status)) {
    problems.push(`status ${ex.status}, expected ${wanted.join(" or ")}`);
  }
  const statusKey = spec.documentedStatus(operationId, ex.status);
  if (!statusKey) {
    problems.push(`status ${ex.status} is not documented for ${operationId} (documented: ${spec.operation(operationId).statuses.join(", ")})`);
    return problems;
  }
  const mediaTypes = spec.responseMediaTypes(operationId, statusKey);
  if (mediaTypes.length === 0) {
    if (!EMPTY_BODIES.has(ex.text.trim())) problems.push(`the ${statusKey} answer is documented with no body, but it has one`);
    return problems;
  }
  if (!mediaTypes.includes(ex.mediaType)) {
    if (ex.status >= 400 && !isJsonMediaType(ex.mediaType)) {
      // design.md: clients tolerate error bodies that are not JSON, so this is worth a warning only.
      warn(operationId, "content_type_conformance", `${ex.status} answered with ${ex.mediaType || "no content type"}, documented: ${mediaTypes.join(", ")}`);
      return problems;
    }
    problems.push(`content type ${ex.mediaType || "(none)"} is not documented for ${statusKey} (documented: ${mediaTypes.join(", ")})`);
    return problems;
  }
  let body: unknown = ex.text;
  if (isJsonMediaType(ex.mediaType)) {
    try {
      body = JSON.parse(ex.text);
    } catch {
      problems.push(`the body is not valid JSON although the content type is ${ex.mediaType}`);
      return problems;
    }
  } else {
    // A trailing newline after a text body is what `echo` and many frameworks add; it is not part of the value.
    body = ex.text.trimEnd();
  }
  const result = spec.validateResponse(operationId, statusKey, ex.mediaType, body);
  if (!result.valid) {
    problems.push(`the body does not match the schema at ${result.schemaPointer}:`, ...result.problems.slice(0, 5).map((p) => `  ${p}`));
  }
  return problems;
}

/** The request and answer, as evidence for a failure report (the key is already redacted). */
export function describeExchange(ex: Exchange): string {
  const body = ex.text.length > BODY_EXCERPT ? `${ex.text.slice(0, BODY_EXCERPT)}…` : ex.text;
  const headers = Object.entries(ex.request.headers).map(([k, v]) => `${k}: ${v}`).join("; ");
  return [
    `  request:  ${ex.request.method} ${ex.request.path}${headers ? ` (${headers})` : ""}${ex.request.body === undefined ? "" : ` body ${ex.request.body}`}`,
    `  response: ${ex.status}, content-type ${ex.headers.get("content-type") ?? "(none)"}, body ${body === "" ? "<empty>" : JSON.stringify(body)}`,
  ].join("\n");
}

/** The vitest matcher behind `expect(exchange).toMatchOperation(operationId, status?)`. */
export function toMatchOperation(spec: OpenApiValidator, ex: Exchange, operationId: string, expected?: ExpectedStatus) {
  const problems = contractProblems(spec, ex, operationId, expected);
  const pass = problems.length === 0;
  const headline = `${operationId} → ${ex.status} ${ex.mediaType || "(no content type)"}`;
  return {
    pass,
    message: () =>
      pass
        ? `${headline} keeps the contract, expected it not to`
        : `${headline} breaks the contract:\n${problems.map((p) => (p.startsWith("  ") ? `  ${p}` : `  - ${p}`)).join("\n")}\n${describeExchange(ex)}`,
  };
}
