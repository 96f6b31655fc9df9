import { isJsonMediaType } from "../../lib/openapi/media-type.ts";
import { documentedAnswerCheck, findings } from "./types.ts";

/** content_type_conformance: a body comes with a content type documented for its status. */
export const contentTypeConformance = documentedAnswerCheck(
  "content_type_conformance",
  "A body comes with a content type the operation documents for its status (non-JSON error bodies only warn: decisions.md, Error bodies).",
  (ex, spec, statusKey) => {
    const mediaTypes = spec.responseMediaTypes(ex.operationId, statusKey);
    if (mediaTypes.length === 0 || mediaTypes.includes(ex.mediaType)) return findings();
    const problem = `${ex.status} answered with ${ex.mediaType || "no content type"}, documented: ${mediaTypes.join(", ")}`;
    // Clients tolerate error bodies that are not JSON, so those only warn (docs/decisions.md, Error bodies).
    return ex.status >= 400 && !isJsonMediaType(ex.mediaType) ? findings([], [problem]) : findings([problem]);
  },
);
