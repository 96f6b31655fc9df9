import { responseCheck } from "./types.ts";

/** status_code_conformance: every status is one the operation documents (4xx included). */
export const statusCodeConformance = responseCheck({
  kind: "response",
  name: "status_code_conformance",
  description: "Every status is one the operation documents, 4xx included.",
  inspect(ex, spec) {
    if (spec.documentedStatus(ex.operationId, ex.status)) return { failures: [], warnings: [] };
    const documented = spec.operation(ex.operationId).statuses.join(", ");
    return { failures: [`status ${ex.status} is not documented for ${ex.operationId} (documented: ${documented})`], warnings: [] };
  },
});
