/**
 * The one-line diagnosis for a server that answers the metadata in the shape of the service's own OpenAPI document
 * (its generated `/openapi.json`, schema `FileResponse`) instead of the description's: camelCase names, and a date
 * where the description has a timestamp. The contract stays the description's (docs/decisions.md, D12);
 * this line says why the schema checks fail, once, before the failures themselves.
 */

/** The description's name of each metadata member that the service's own document names otherwise. */
const DOCUMENT_NAMES: readonly (readonly [document: string, description: string])[] = [
  ["fileId", "id"],
  ["sizeBytes", "size"],
  ["creationDate", "created_at"],
];

// A calendar date alone (RFC 3339 full-date), where the description has a timestamp.
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Why `metadata` does not fit the description's names, in one line; undefined when it is not the document's shape. */
export function serviceDocumentShape(metadata: unknown): string | undefined {
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return undefined;
  const has = (name: string) => Object.hasOwn(metadata, name);
  const renamed = DOCUMENT_NAMES.filter(([document, description]) => has(document) && !has(description));
  const createdAt = (metadata as Record<string, unknown>).created_at;
  const dateOnly = typeof createdAt === "string" && DATE_ONLY.test(createdAt);
  if (renamed.length === 0 && !dateOnly) return undefined;
  const parts: string[] = [];
  if (renamed.length > 0) {
    parts.push(
      `the field names of the service's own OpenAPI document: ${renamed.map(([d, s]) => `${d} → ${s}`).join(", ")}`,
    );
  }
  if (dateOnly)
    parts.push(`a date for created_at (${JSON.stringify(createdAt)}), where the description has a UTC timestamp`);
  return `this server answers ${parts.join("; and ")}; the contract is the service description's (docs/decisions.md, D12)`;
}
