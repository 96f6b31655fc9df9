import { documentedAnswerCheck, findings } from "./types.ts";

/** content_type_conformance: a body comes with a content type documented for its status. */
export const contentTypeConformance = documentedAnswerCheck(
  "content_type_conformance",
  "A body comes with a content type the operation documents for its status; on an error answer another type only warns (a +json body is judged as JSON by response_schema_conformance: decisions.md, D13).",
  (ex, spec, statusKey) => {
    const mediaTypes = spec.responseMediaTypes(ex.operationId, statusKey);
    if (mediaTypes.length === 0 || mediaTypes.includes(ex.mediaType)) return findings();
    const problem = `${ex.status} answered with ${ex.mediaType || "no content type"}, documented: ${mediaTypes.join(", ")}`;
    // Clients tolerate any error body, and read a +json one as JSON: on an error, the media type alone only warns
    // (docs/decisions.md, D13).
    return ex.status >= 400 ? findings([], [problem]) : findings([problem]);
  },
);
