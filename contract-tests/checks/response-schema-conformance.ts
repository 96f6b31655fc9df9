import { isJsonMediaType } from "../support/openapi-validator.ts";
import { responseCheck } from "./types.ts";

// The spec documents the update's 200 with no body; these are the empty answers servers really send.
const EMPTY_BODIES = new Set(["", "null", "{}"]);

/** response_schema_conformance: a body matches the schema documented for its status and content type. */
export const responseSchemaConformance = responseCheck({
  kind: "response",
  name: "response_schema_conformance",
  description: "A body matches the schema documented for its status and content type; an answer documented without a body has none.",
  inspect(ex, spec) {
    const none = { failures: [], warnings: [] };
    const statusKey = spec.documentedStatus(ex.operationId, ex.status);
    if (!statusKey) return none;
    const mediaTypes = spec.responseMediaTypes(ex.operationId, statusKey);
    if (mediaTypes.length === 0) {
      return EMPTY_BODIES.has(ex.text.trim()) ? none : { failures: [`the ${statusKey} answer is documented with no body, but it has one`], warnings: [] };
    }
    if (!mediaTypes.includes(ex.mediaType)) return none; // content_type_conformance reports it
    let body: unknown;
    if (isJsonMediaType(ex.mediaType)) {
      try {
        body = JSON.parse(ex.text);
      } catch {
        return { failures: [`the body is not valid JSON although the content type is ${ex.mediaType}`], warnings: [] };
      }
    } else {
      // A trailing newline after a text body is what `echo` and many frameworks add; it is not part of the value.
      body = ex.text.trimEnd();
    }
    const result = spec.validateResponse(ex.operationId, statusKey, ex.mediaType, body);
    if (result.valid) return none;
    return { failures: [`the body does not match ${result.schemaPointer}: ${result.problems.slice(0, 5).join("; ")}`], warnings: [] };
  },
});
