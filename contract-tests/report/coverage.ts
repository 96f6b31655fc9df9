import type { Coverage, ExchangeEvidence } from "./shapes.ts";
import type { SpecOperations } from "../../lib/openapi/spec-operations.ts";

/** Coverage of the spec's statuses by the answers of a run. */
export function statusCoverage(
  spec: SpecOperations,
  exchanges: ReadonlyArray<Pick<ExchangeEvidence, "operationId" | "status">>,
  operations: string[],
): Coverage {
  return {
    operations: operations.map((operation) => {
      const seen = new Set(exchanges.filter((e) => e.operationId === operation).map((e) => e.status));
      const documented = spec.operation(operation).statuses.map((status) => ({
        status,
        observed: [...seen].some((s) => spec.documentedStatus(operation, s) === status),
      }));
      const undocumented = [...seen].filter((s) => !spec.documentedStatus(operation, s)).sort();
      return { operation, documented, undocumented };
    }),
  };
}
