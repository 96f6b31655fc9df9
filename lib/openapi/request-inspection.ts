import { bearerToken } from "../bearer-token.ts";
import { mediaTypeOf } from "./media-type.ts";
import { createRouter } from "./router.ts";
import type { ValidationIssue } from "./validation-errors.ts";
import type { OpenApiValidator } from "./validator.ts";

/** The rules a request may break, by the spec: each is one finding's name. */
export type RequestRule =
  | "operation_exists"
  | "path_parameters_valid"
  | "auth_sent"
  | "request_content_type"
  | "request_body_valid";

/** One rule a request breaks, in words; body issues as the validator gives them. */
export interface RequestFinding {
  rule: RequestRule;
  problem: string;
  /** The schema's issues, when the body is JSON that does not match it. */
  issues?: ValidationIssue[];
  /** The parser's message, when the body is not JSON at all. */
  parseError?: string;
}

/** A request as the spec reads it: its operation (if any), path parameters, JSON body, and every rule it breaks. */
export interface InspectedRequest {
  /** undefined when no operation of the spec has this method and path. */
  operationId: string | undefined;
  /** The methods the path has (for an `Allow` header), or [] when no path matches. */
  allow: string[];
  params: Record<string, string | undefined>;
  /** The media type of the body sent, lower-cased ("" when none). */
  mediaType: string;
  /** The body parsed as JSON, when the operation takes one and it is JSON. */
  json?: unknown;
  findings: RequestFinding[];
}

/** A request as any transport has it. */
export interface RequestToInspect {
  method: string;
  /** The path, percent-encoding untouched (no query). */
  rawPath: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as text (undefined when there is none). */
  body: string | undefined;
}

/** A header's value as one string: node's and undici's header objects give a repeated header as a list. */
export const headerValue = (headers: RequestToInspect["headers"], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};

/**
 * Judges requests against the spec: the operation exists, its path parameters decode, the key is sent where the
 * spec requires one, and a body has a documented media type and matches its schema. The sandbox answers by it, and
 * the contract proxy reports an app's requests by it: one implementation of what a valid request is.
 */
export function createRequestInspector(
  spec: Pick<OpenApiValidator, "document" | "validateRequestBody" | "requiresAuth" | "requestBodyMediaTypes">,
): (request: RequestToInspect) => InspectedRequest {
  const route = createRouter(spec);
  // What each operation requires, read from the spec once: the sandbox inspects every request it serves.
  const operations = new Map<string, { auth: boolean; mediaTypes: string[] }>();
  const operationOf = (id: string) => {
    let found = operations.get(id);
    if (!found)
      operations.set(id, (found = { auth: spec.requiresAuth(id), mediaTypes: spec.requestBodyMediaTypes(id) }));
    return found;
  };
  return (request) => {
    const findings: RequestFinding[] = [];
    const mediaType = mediaTypeOf(headerValue(request.headers, "content-type"));
    const match = route(request.method, request.rawPath);
    if (!match) {
      return {
        operationId: undefined,
        allow: [],
        params: {},
        mediaType,
        findings: [
          { rule: "operation_exists", problem: `no path of the spec matches ${request.rawPath.slice(0, 200)}` },
        ],
      };
    }
    const { operationId, allow, params } = match;
    if (operationId === undefined) {
      return {
        operationId,
        allow,
        params,
        mediaType,
        findings: [
          {
            rule: "operation_exists",
            problem: `${request.method} is no operation of ${request.rawPath.slice(0, 200)} (it has ${allow.join(", ")})`,
          },
        ],
      };
    }
    for (const [name, value] of Object.entries(params)) {
      if (value === undefined)
        findings.push({
          rule: "path_parameters_valid",
          problem: `the path parameter ${name} is not valid percent-encoding`,
        });
    }
    const operation = operationOf(operationId);
    if (operation.auth && bearerToken(headerValue(request.headers, "authorization")) === undefined) {
      findings.push({ rule: "auth_sent", problem: "no API key: the spec requires Authorization: Bearer <API_KEY>" });
    }
    const inspected: InspectedRequest = { operationId, allow, params, mediaType, findings };
    const documented = operation.mediaTypes;
    if (documented.length === 0) return inspected;
    if (!documented.includes(mediaType)) {
      findings.push({
        rule: "request_content_type",
        problem: `the body is sent as ${mediaType || "no media type"}, not as ${documented.join(" or ")}`,
      });
      return inspected;
    }
    try {
      inspected.json = JSON.parse(request.body ?? "");
    } catch (error) {
      const parseError = (error as Error).message;
      findings.push({ rule: "request_body_valid", problem: `the body is not valid JSON: ${parseError}`, parseError });
      return inspected;
    }
    const result = spec.validateRequestBody(operationId, mediaType, inspected.json);
    if (!result.valid) {
      const fields = [...new Set(result.issues.map((issue) => issue.path.join(".") || "(the body)"))];
      findings.push({
        rule: "request_body_valid",
        problem: `the body does not match its schema: check ${fields.join(", ")}`,
        issues: result.issues,
      });
    }
    return inspected;
  };
}
