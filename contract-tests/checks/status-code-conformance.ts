import { findings, responseCheck } from "./types.ts";

/** status_code_conformance: every status is one the operation documents (4xx included). */
export const statusCodeConformance = responseCheck(
  "status_code_conformance",
  "Every status is one the operation documents, 4xx included (decisions.md, D15).",
  (ex, spec) => {
    if (spec.documentedStatus(ex.operationId, ex.status)) return findings();
    const documented = spec.operation(ex.operationId).statuses.join(", ");
    return findings([`status ${ex.status} is not documented for ${ex.operationId} (documented: ${documented})`]);
  },
);
