import fc from "fast-check";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";

type Schema = Record<string, unknown>;

/** A request body to send: JSON, or raw text that is not JSON at all. */
export type GeneratedBody = { json: unknown; breaks: string } | { raw: string; breaks: string };

const typesOf = (schema: Schema): string[] => ([] as string[]).concat((schema.type as string | string[] | undefined) ?? []);

/** Values that break a `type`: one of each JSON type the schema does not allow. */
function wrongTypeValues(schema: Schema): unknown[] {
  const allowed = new Set(typesOf(schema));
  const candidates: Array<[string, unknown]> = [
    ["string", "finance,q1"],
    ["integer", 42],
    ["boolean", true],
    ["null", null],
    ["object", { value: "x" }],
    ["array", ["x"]],
  ];
  return candidates.filter(([type]) => !allowed.has(type) && !(type === "integer" && allowed.has("number"))).map(([, value]) => value);
}

/** An arbitrary of the values a schema accepts (the subset of JSON Schema the spec uses). */
export function arbitraryFor(spec: OpenApiValidator, schemaNode: Schema): fc.Arbitrary<unknown> {
  const schema = spec.deref(schemaNode);
  const [type] = typesOf(schema);
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const arbitraries = Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, arbitraryFor(spec, p)]));
      return fc.record(arbitraries, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    case "array":
      return fc.array(arbitraryFor(spec, (schema.items ?? {}) as Schema), { maxLength: 4 });
    case "string":
      if (schema.format === "uri") return fc.webUrl({ withQueryParameters: true });
      return fc.string({ unit: "grapheme", minLength: (schema.minLength as number | undefined) ?? 0, maxLength: 16 });
    case "integer":
      return fc.integer({ min: (schema.minimum as number | undefined) ?? -1e6, max: 1e6 });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    default:
      return fc.jsonValue();
  }
}

/** Bodies that are wrong as a whole: not an object, or not JSON at all. Always sent, whatever the seed. */
export const WRONG_WHOLE_BODIES: readonly GeneratedBody[] = [
  { json: [], breaks: "a JSON array instead of an object" },
  { json: "labels=a", breaks: "a JSON string instead of an object" },
  { json: 7, breaks: "a JSON number instead of an object" },
  { raw: '{"labels": ["unterminated', breaks: "text that is not JSON" },
  { raw: "labels=a&publicUrl=b", breaks: "a form body instead of JSON" },
];

/**
 * Bodies that break an object schema in exactly one field: a property of the wrong type, or an array
 * item of the wrong type, the rest valid. Unknown fields are not among them: a server may ignore those (docs/decisions.md, The update).
 */
export function invalidBodies(spec: OpenApiValidator, schemaNode: Schema): fc.Arbitrary<GeneratedBody> {
  const schema = spec.deref(schemaNode);
  const valid = arbitraryFor(spec, schema) as fc.Arbitrary<Record<string, unknown>>;
  const cases: Array<fc.Arbitrary<GeneratedBody>> = [];
  for (const [name, propertyNode] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const property = spec.deref(propertyNode);
    cases.push(
      fc.tuple(valid, fc.constantFrom(...wrongTypeValues(property))).map(([base, wrong]) => ({
        json: { ...base, [name]: wrong },
        breaks: `${name} of the wrong type`,
      })),
    );
    if (typesOf(property).includes("array") && property.items) {
      const item = spec.deref(property.items as Schema);
      cases.push(
        fc.tuple(valid, arbitraryFor(spec, property), fc.constantFrom(...wrongTypeValues(item))).map(([base, items, wrong]) => ({
          json: { ...base, [name]: [...(items as unknown[]), wrong] },
          breaks: `an item of ${name} of the wrong type`,
        })),
      );
    }
  }
  return fc.oneof(...cases);
}

const AWKWARD = ["/", "..", "%", "%2F", "?", "#", " ", "ü", "日本", "a", "-", ".", "+", "&", "=", "\\", "'", '"'];

const UNKNOWN_PREFIX = "contract-unknown-";

/** An unknown id of 1000 characters. Always sent, whatever the seed. */
export const LONG_UNKNOWN_ID = UNKNOWN_PREFIX + "x".repeat(1000 - UNKNOWN_PREFIX.length);

/** File ids no server has, made of the characters that break routers: slashes, dots, %, ?, #, spaces, quotes, non-ASCII. */
export function awkwardUnknownIds(): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...AWKWARD), { minLength: 1, maxLength: 8 }).map((parts) => UNKNOWN_PREFIX + parts.join(""));
}
