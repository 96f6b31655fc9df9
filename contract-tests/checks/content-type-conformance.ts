import { isJsonMediaType } from "../support/openapi-validator.ts";
import { responseCheck } from "./types.ts";

/** content_type_conformance: a body comes with a content type documented for its status. */
export const contentTypeConformance = responseCheck({
  kind: "response",
  name: "content_type_conformance",
  description: "A body comes with a content type the operation documents for its status (non-JSON error bodies only warn).",
  inspect(ex, spec) {
    const statusKey = spec.documentedStatus(ex.operationId, ex.status);
    if (!statusKey) return { failures: [], warnings: [] };
    const mediaTypes = spec.responseMediaTypes(ex.operationId, statusKey);
    if (mediaTypes.length === 0 || mediaTypes.includes(ex.mediaType)) return { failures: [], warnings: [] };
    const problem = `${ex.status} answered with ${ex.mediaType || "no content type"}, documented: ${mediaTypes.join(", ")}`;
    // design.md: clients tolerate error bodies that are not JSON, so those only warn.
    if (ex.status >= 400 && !isJsonMediaType(ex.mediaType)) return { failures: [], warnings: [problem] };
    return { failures: [problem], warnings: [] };
  },
});
