import { escapeSegment, followRefs, nodeAt } from "../../lib/openapi/json-pointer.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";

type Schema = { properties?: Record<string, unknown>; items?: unknown; type?: unknown };

/**
 * The members of a pact's response body that its documented schema does not name, as Pact paths (`$.owner`,
 * `$.labels[0].x`). A server may send more than the spec lists (FileMetadata says so), and the suite lets it; a
 * consumer that relies on such a member relies on what the provider never promised (docs/decisions.md, D26).
 * Schemas that combine others (allOf, oneOf) are not walked into: their members are no finding.
 */
export function undocumentedMembers(
  spec: OpenApiValidator,
  operationId: string,
  statusKey: string,
  mediaType: string,
  body: unknown,
): string[] {
  const { method, path } = spec.operation(operationId);
  const pointer = `#/paths/${escapeSegment(path)}/${method.toLowerCase()}/responses/${escapeSegment(statusKey)}`;
  const response = followRefs(spec.document, nodeAt(spec.document, pointer), pointer).node as
    | { content?: Record<string, { schema?: unknown }> }
    | undefined;
  const schema = response?.content?.[mediaType]?.schema;
  const found: string[] = [];
  walk(spec.document, schema, body, "$", found, 0);
  return found;
}

function walk(document: unknown, node: unknown, value: unknown, at: string, found: string[], depth: number): void {
  if (node === undefined || depth > 32 || found.length >= 50) return;
  const schema = followRefs(document, node, "").node as Schema | undefined;
  if (schema === undefined || schema === null || typeof schema !== "object") return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => walk(document, schema.items, item, `${at}[${index}]`, found, depth + 1));
    return;
  }
  if (value === null || typeof value !== "object" || schema.properties === undefined) return;
  for (const [name, member] of Object.entries(value)) {
    const where = /^[A-Za-z_]\w*$/.test(name) ? `${at}.${name}` : `${at}['${name}']`;
    if (!Object.hasOwn(schema.properties, name)) found.push(where);
    else walk(document, schema.properties[name], member, where, found, depth + 1);
  }
}
