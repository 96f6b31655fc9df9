import fc from "fast-check";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";

type Schema = Record<string, unknown>;

/** A request body to send: JSON, or raw text that is not JSON at all. */
export type GeneratedBody = { json: unknown; breaks: string } | { raw: string; breaks: string };

const typesOf = (schema: Schema): string[] =>
  ([] as string[]).concat((schema.type as string | string[] | undefined) ?? []);

/** Values that break a `type`: one of each JSON type (null, boolean, number, string, object, array) the schema does not allow. */
function wrongTypeValues(schema: Schema): Array<{ type: string; value: unknown }> {
  const allowed = new Set(typesOf(schema));
  // Where integers are allowed but not numbers, the wrong number is a fraction.
  const number = allowed.has("integer") ? 4.5 : 42;
  const candidates: Array<[string, unknown]> = [
    ["null", null],
    ["boolean", true],
    ["number", number],
    ["string", "finance,q1"],
    ["object", { value: "x" }],
    ["array", ["x"]],
  ];
  return candidates.filter(([type]) => !allowed.has(type)).map(([type, value]) => ({ type, value }));
}

/** A value a schema accepts, as small as can be: for the fields a body must have while another one is wrong. */
function minimalValid(spec: OpenApiValidator, schemaNode: Schema): unknown {
  const schema = spec.deref(schemaNode);
  const [type] = typesOf(schema);
  if (type === "object") {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = (schema.required as string[] | undefined) ?? [];
    return Object.fromEntries(required.map((name) => [name, minimalValid(spec, properties[name] ?? {})]));
  }
  const minimal: Record<string, unknown> = {
    array: [],
    string: "x".repeat(Number(schema.minLength ?? 1)),
    integer: 0,
    number: 0,
    boolean: false,
    null: null,
  };
  return minimal[type ?? "null"];
}

/** A body sent whatever the seed, with the kind of break it is, for the summary's count. */
export type WrongBody = GeneratedBody & { kind: string };

/**
 * Every body that breaks an object schema in exactly one place, the same in every run (Schemathesis' coverage
 * phase does the same): the body not an object (one of each other JSON type), not JSON at all, each property
 * of each JSON type it does not allow, each array property with an item of each type its items do not allow.
 */
export function wrongBodies(spec: OpenApiValidator, schemaNode: Schema): WrongBody[] {
  const schema = spec.deref(schemaNode);
  const base = minimalValid(spec, schema) as Record<string, unknown>;
  const bodies: WrongBody[] = wrongTypeValues(schema).map(({ type, value }) => ({
    json: value,
    breaks: `a JSON ${type} instead of an object`,
    kind: "bodies not an object",
  }));
  bodies.push(
    { raw: '{"labels": ["unterminated', breaks: "text that is not JSON", kind: "bodies not JSON" },
    { raw: "labels=a&publicUrl=b", breaks: "a form body instead of JSON", kind: "bodies not JSON" },
  );
  for (const [name, propertyNode] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const property = spec.deref(propertyNode);
    for (const { type, value } of wrongTypeValues(property)) {
      bodies.push({
        json: { ...base, [name]: value },
        breaks: `${name} as a ${type}`,
        kind: `${name} of a wrong type`,
      });
    }
    if (typesOf(property).includes("array") && property.items) {
      for (const { type, value } of wrongTypeValues(spec.deref(property.items as Schema))) {
        bodies.push({
          json: { ...base, [name]: [value] },
          breaks: `an item of ${name} as a ${type}`,
          kind: `${name} items of a wrong type`,
        });
      }
    }
  }
  return bodies;
}

// What RFC 3986 allows as is in a path segment or a query, and percent-encodings. fast-check's webUrl would do, but
// building it costs over a second per run (its path and query arbitraries), more than the checks themselves.
const URI_PIECES = [
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@",
  "%20",
  "%2F",
  "%C3%BC",
  "%E6%97%A5",
];
const uriPiece = fc.string({ unit: fc.constantFrom(...URI_PIECES), maxLength: 10 });
/** Absolute http(s) URIs: a web authority, path segments and maybe a query. */
const uris = fc
  .tuple(
    fc.constantFrom("http", "https"),
    fc.webAuthority(),
    fc.array(uriPiece, { maxLength: 3 }),
    fc.option(uriPiece, { nil: undefined }),
  )
  .map(
    ([scheme, authority, segments, query]) =>
      `${scheme}://${authority}/${segments.join("/")}${query === undefined ? "" : `?${query}`}`,
  );

/** An arbitrary of the values a schema accepts (the subset of JSON Schema the spec uses). */
export function arbitraryFor(spec: OpenApiValidator, schemaNode: Schema): fc.Arbitrary<unknown> {
  const schema = spec.deref(schemaNode);
  const types = typesOf(schema);
  // A schema of several types (`[string, "null"]`) gets values of each: `null` is as valid as a string there.
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitraryOfType(spec, schema, type)));
  return arbitraryOfType(spec, schema, types[0]);
}

function arbitraryOfType(spec: OpenApiValidator, schema: Schema, type: string | undefined): fc.Arbitrary<unknown> {
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const arbitraries = Object.fromEntries(
        Object.entries(properties).map(([name, p]) => [name, arbitraryFor(spec, p)]),
      );
      return fc.record(arbitraries, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    case "array":
      return fc.array(arbitraryFor(spec, (schema.items ?? {}) as Schema), { maxLength: 4 });
    case "string":
      if (schema.format === "uri") return uris;
      return fc.string({ unit: "grapheme", minLength: (schema.minLength as number | undefined) ?? 0, maxLength: 16 });
    case "integer":
      return fc.integer({ min: (schema.minimum as number | undefined) ?? -1e6, max: 1e6 });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return fc.jsonValue();
  }
}

/**
 * Bodies that break an object schema in exactly one field: a property of the wrong type, or an array
 * item of the wrong type, the rest valid. Unknown fields are not among them: a server may ignore those (docs/decisions.md, D05).
 */
export function invalidBodies(spec: OpenApiValidator, schemaNode: Schema): fc.Arbitrary<GeneratedBody> {
  const schema = spec.deref(schemaNode);
  const valid = arbitraryFor(spec, schema) as fc.Arbitrary<Record<string, unknown>>;
  const cases: Array<fc.Arbitrary<GeneratedBody>> = [];
  for (const [name, propertyNode] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const property = spec.deref(propertyNode);
    cases.push(
      fc.tuple(valid, fc.constantFrom(...wrongTypeValues(property))).map(([base, wrong]) => ({
        json: { ...base, [name]: wrong.value },
        breaks: `${name} of the wrong type`,
      })),
    );
    if (typesOf(property).includes("array") && property.items) {
      const item = spec.deref(property.items as Schema);
      cases.push(
        // The list itself, whatever other types the property allows (`null`): one wrong item is added to it.
        fc
          .tuple(valid, arbitraryOfType(spec, property, "array"), fc.constantFrom(...wrongTypeValues(item)))
          .map(([base, items, wrong]) => ({
            json: { ...base, [name]: [...(items as unknown[]), wrong.value] },
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
  return fc
    .array(fc.constantFrom(...AWKWARD), { minLength: 1, maxLength: 8 })
    .map((parts) => UNKNOWN_PREFIX + parts.join(""));
}

/**
 * Valid update bodies from the spec's UpdateFileRequest, fields left out at random, each possibly `null` where the spec
 * allows it ("not given": docs/decisions.md, D05): labels always possible, a publicUrl string only when the run
 * can put the file's own back (`withPublicUrl`), a `null` publicUrl always (it changes nothing).
 */
export function validUpdateBodies(
  spec: OpenApiValidator,
  { withPublicUrl }: { withPublicUrl: boolean },
): fc.Arbitrary<Record<string, unknown>> {
  const properties = spec.requestBodySchema("updateFile", "application/json").properties as Record<string, Schema>;
  const fields: Record<string, fc.Arbitrary<unknown>> = { labels: arbitraryFor(spec, properties.labels!) };
  if (withPublicUrl) fields.publicUrl = arbitraryFor(spec, properties.publicUrl!);
  else if (typesOf(spec.deref(properties.publicUrl!)).includes("null")) fields.publicUrl = fc.constant(null);
  return fc.record(fields, { requiredKeys: [] });
}
