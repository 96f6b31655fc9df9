import { HTTP_METHODS } from "./methods.ts";

/** The parts of an OpenAPI 3.1 document the kit reads. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
}

/** One operation of the spec, found by its operationId. */
export interface OperationInfo {
  operationId: string;
  method: string;
  path: string;
  /** Status keys as documented: "200", "422", "5XX", "default". */
  statuses: string[];
}

/**
 * The operations of one OpenAPI document and the statuses each documents, read with no JSON Schema validator: what a
 * process that only reports on a run needs (the suite's global setup and reporter), without loading Ajv.
 */
export class SpecOperations {
  readonly document: OpenApiDocument;
  /** Each operation with its node in the document, by operationId, in the order the paths list them. */
  protected readonly operations = new Map<string, OperationInfo & { node: Record<string, unknown> }>();

  constructor(document: OpenApiDocument) {
    this.document = document;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of HTTP_METHODS) {
        const node = item[method] as Record<string, unknown> | undefined;
        if (!node || typeof node.operationId !== "string") continue;
        const statuses = Object.keys((node.responses as Record<string, unknown>) ?? {});
        this.operations.set(node.operationId, {
          operationId: node.operationId,
          method: method.toUpperCase(),
          path,
          statuses,
          node,
        });
      }
    }
  }

  /** The operationIds of the spec, in the order its paths list them. */
  operationIds(): string[] {
    return [...this.operations.keys()];
  }

  /** The operation with this operationId; throws when the spec has none. */
  operation(operationId: string): OperationInfo {
    const found = this.operations.get(operationId);
    if (!found) throw new Error(`The spec has no operation ${JSON.stringify(operationId)}.`);
    const { node: _node, ...info } = found;
    return info;
  }

  /** The documented status key that covers a status ("422", "5XX" or "default"), if any. */
  documentedStatus(operationId: string, status: number): string | undefined {
    const { statuses } = this.operation(operationId);
    const exact = String(status);
    if (statuses.includes(exact)) return exact;
    const range = `${exact[0]}XX`;
    return (
      statuses.find((key) => key.toUpperCase() === range) ?? (statuses.includes("default") ? "default" : undefined)
    );
  }
}
