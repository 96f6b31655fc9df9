import { bearerToken } from "../../lib/bearer-token.ts";
import { isJsonMediaType, mediaTypeOf } from "../../lib/openapi/media-type.ts";
import { createRequestInspector } from "../../lib/openapi/request-inspection.ts";
import type { ValidationIssue } from "../../lib/openapi/validation-errors.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import type { OperationId } from "../../src/errors.ts";
import { downloadText } from "../../src/response-body.ts";
import { judgeAnswer } from "../checks/judge-answer.ts";
import { DEFAULT_LIMITS } from "../checks/types.ts";
import { exchangeFrom } from "../http/exchange.ts";
import type { PactInteraction } from "./read-pact.ts";
import { undocumentedMembers } from "./undocumented-members.ts";

/** One way an interaction of a pact does not fit the spec. */
export interface PactFinding {
  /** The interaction: its description, and its provider states when it has any. */
  interaction: string;
  /** Its place in the pact's interactions, from 0. */
  index: number;
  /** The consumer's request, or the response it expects of the provider. */
  side: "request" | "response";
  /** Where: `path`, `header Authorization`, `status`, `body`, `$.size`. */
  member: string;
  check: string;
  problem: string;
}

/** What a consumer may leave out of a pact: it states what it needs of an answer, not all the provider sends. */
const PARTIAL = /^the required header \S+ is missing$/;

/**
 * Judges each HTTP interaction of a pact against the spec with the suite's own checks, no server involved: the request
 * as the sandbox and the proxy inspect one (lib/openapi/request-inspection.ts), the response with the checks every
 * answer gets (checks/judge-answer.ts) and its body by the documented schema, member by member. A matcher stands for
 * the type it enforces, shown by its example, so the example is judged (docs/decisions.md, D26). Members and
 * headers the spec requires but the pact leaves out are no finding: a pact is what the consumer relies on.
 */
export function judgePact(spec: OpenApiValidator, interactions: readonly PactInteraction[]): PactFinding[] {
  const inspect = createRequestInspector(spec);
  return interactions.flatMap((interaction) => judgeInteraction(spec, inspect, interaction));
}

function judgeInteraction(
  spec: OpenApiValidator,
  inspect: ReturnType<typeof createRequestInspector>,
  it: PactInteraction,
): PactFinding[] {
  const found: PactFinding[] = [];
  const name = it.states.length === 0 ? it.description : `${it.description} (given ${it.states.join(", ")})`;
  const add = (side: PactFinding["side"], member: string, check: string, problem: string) =>
    found.push({ interaction: name, index: it.index, side, member, check, problem });
  // Pact paths are written unencoded (pact-js, the core): encoded here as a client would send them.
  const rawPath = /%[0-9A-Fa-f]{2}/.test(it.request.path) ? it.request.path : encodeURI(it.request.path);
  const inspected = inspect({ method: it.request.method, rawPath, headers: it.request.headers, body: it.request.body });
  for (const finding of inspected.findings) {
    // An interaction about the answer to a missing key sends none on purpose.
    if (finding.rule === "auth_sent" && (it.response.status === 401 || it.response.status === 403)) continue;
    for (const member of membersOf(finding.rule, finding.issues)) add("request", member, finding.rule, finding.problem);
  }
  if (inspected.operationId === undefined) return found;
  const operationId = inspected.operationId as OperationId;

  const { response } = it;
  const mediaType = mediaTypeOf(response.contentType);
  const headers = new Headers();
  for (const [header, value] of Object.entries(response.headers)) headers.set(header, value);
  if (response.contentType !== undefined && !headers.has("content-type"))
    headers.set("content-type", response.contentType);
  const shown = {
    auth: bearerToken(it.request.headers.authorization) ? ("valid" as const) : ("none" as const),
    method: it.request.method,
    path: rawPath,
    url: rawPath,
    headers: it.request.headers,
  };
  const ex = exchangeFrom(
    operationId,
    shown,
    { status: response.status, headers, text: response.body ?? "", durationMs: 0 },
    { secrets: [], credentials: [] },
  );
  const judged = (check: string) =>
    check !== "response_schema_conformance" &&
    check !== "max_response_time" &&
    check !== "no_secret_echo" &&
    (response.body !== undefined || !/json_well_formed|body_within_limit|content_type_conformance/.test(check));
  for (const { check, failures } of judgeAnswer(ex, spec, DEFAULT_LIMITS, judged)) {
    for (const problem of failures)
      if (!PARTIAL.test(problem))
        add(
          "response",
          check === "status_code_conformance" || check === "not_a_server_error"
            ? "status"
            : check === "response_headers_conformance" || check === "content_type_conformance"
              ? "headers"
              : "body",
          check,
          problem,
        );
  }
  if (response.body !== undefined)
    for (const [member, check, problem] of schemaProblems(spec, operationId, response.status, mediaType, response.body))
      add("response", member, check, problem);
  return found;
}

/** Where a request finding points: the body's members for a schema's issues, else the part of the request. */
function membersOf(rule: string, issues: ValidationIssue[] | undefined): string[] {
  if (rule === "request_body_valid")
    return issues?.length ? [...new Set(issues.map((issue) => pointerOf(issue.path)))] : ["body"];
  return [
    rule === "auth_sent" ? "header Authorization" : rule === "request_content_type" ? "header Content-Type" : "path",
  ];
}

/** A member's path as Pact writes it: `$.labels[0]`. */
const pointerOf = (path: ValidationIssue["path"]) =>
  `$${path.map((step) => (typeof step === "number" ? `[${step}]` : /^[A-Za-z_]\w*$/.test(step) ? `.${step}` : `['${step}']`)).join("")}`;

/**
 * The body by the schema documented for its status and media type, one problem per member; a member the schema
 * requires and the pact leaves out is none (the consumer does not rely on it), a member it does not name is one
 * (response_member_documented). A status or media type the spec does not document is the other checks' to report.
 */
function schemaProblems(
  spec: OpenApiValidator,
  operationId: string,
  status: number,
  mediaType: string,
  text: string,
): Array<[member: string, check: string, problem: string]> {
  const SCHEMA = "response_schema_conformance";
  const statusKey = spec.documentedStatus(operationId, status);
  if (statusKey === undefined) return [];
  const mediaTypes = spec.responseMediaTypes(operationId, statusKey);
  if (mediaTypes.length === 0)
    return ["", "null", "{}"].includes(text.trim())
      ? []
      : [["body", SCHEMA, `the ${statusKey} answer is documented with no body, but the pact gives one`]];
  const judgedAs = mediaTypes.includes(mediaType)
    ? mediaType
    : isJsonMediaType(mediaType)
      ? mediaTypes.find(isJsonMediaType)
      : undefined;
  if (judgedAs === undefined) return [];
  let body: unknown = downloadText(text);
  if (isJsonMediaType(mediaType)) {
    try {
      body = JSON.parse(text);
    } catch {
      return [["body", SCHEMA, `the body is not valid JSON although the content type is ${mediaType}`]];
    }
  }
  const result = spec.validateResponse(operationId, statusKey, judgedAs, body);
  const problems = result.issues
    .filter((issue) => issue.keyword !== "required")
    .map((issue): [string, string, string] => [
      pointerOf(issue.path),
      SCHEMA,
      `${issue.message} (by ${result.schemaPointer ?? "the documented schema"})`,
    ]);
  for (const member of undocumentedMembers(spec, operationId, statusKey, judgedAs, body)) {
    problems.push([
      member,
      "response_member_documented",
      "the consumer relies on a member the spec does not document: the provider may send it, it never promised it",
    ]);
  }
  return problems;
}
