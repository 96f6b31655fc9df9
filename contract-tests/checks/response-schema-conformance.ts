import { isJsonMediaType } from "../../lib/openapi/media-type.ts";
import { downloadText } from "../../src/response-body.ts";
import { jsonBody } from "../http/exchange.ts";
import { PROBLEM_JSON, problemDetailsProblems } from "./problem-details.ts";
import { documentedAnswerCheck, findings } from "./types.ts";

// The spec documents the update's 200 with no body; these are the empty answers servers really send.
const EMPTY_BODIES = new Set(["", "null", "{}"]);

/** response_schema_conformance: a body matches the schema documented for its status and content type. */
export const responseSchemaConformance = documentedAnswerCheck(
  "response_schema_conformance",
  "A body matches the schema documented for its status and content type; an answer documented without a body has none (empty, null or {}: decisions.md, D10); an error answered as application/problem+json also keeps the members RFC 9457 defines (decisions.md, D14).",
  (ex, spec, statusKey) => {
    // A cut body is body_within_limit's to report: judged here, it would fail as invalid JSON besides.
    if (ex.cut !== undefined) return findings();
    const mediaTypes = spec.responseMediaTypes(ex.operationId, statusKey);
    if (mediaTypes.length === 0) {
      return findings(
        EMPTY_BODIES.has(ex.text.trim()) ? [] : [`the ${statusKey} answer is documented with no body, but it has one`],
      );
    }
    // An error body under any +json type (application/problem+json, say) is JSON: judged by the documented JSON schema.
    const judgedAs = mediaTypes.includes(ex.mediaType)
      ? ex.mediaType
      : ex.status >= 400 && isJsonMediaType(ex.mediaType)
        ? mediaTypes.find(isJsonMediaType)
        : undefined;
    if (judgedAs === undefined) return findings(); // content_type_conformance reports it
    let body: unknown;
    if (isJsonMediaType(ex.mediaType)) {
      body = jsonBody(ex);
      if (body === undefined)
        return findings([`the body is not valid JSON although the content type is ${ex.mediaType}`]);
    } else {
      // The one text body is the download's: read as the client reads it, whitespace around the URL not part of it.
      body = downloadText(ex.text);
    }
    const result = spec.validateResponse(ex.operationId, statusKey, judgedAs, body);
    const failures = result.valid
      ? []
      : [`the body does not match ${result.schemaPointer}: ${result.problems.slice(0, 5).join("; ")}`];
    // A problem document is held to RFC 9457 as well as to the error schema: apps read its members by the RFC.
    const members = ex.mediaType === PROBLEM_JSON ? problemDetailsProblems(body, ex.status) : [];
    if (members.length > 0) failures.push(`the problem document breaks RFC 9457: ${members.join("; ")}`);
    return findings(failures);
  },
);
