// One-keyword edits of the bundle's two body schemas, generated over every JSON Schema keyword that a request or
// response body could carry: what test/spec/breaking-changes-oracle.test.ts judges twice, by check:breaking and by an
// independent compatibility checker.

type Doc = Record<string, any>;
/** Which body a schema is: the update's request (the server reads it) or the metadata answer (clients read it). */
export type Side = "request" | "response";
/** One edit: its name, the body it changes, and the change, applied to a copy of the bundle. */
export interface SchemaEdit {
  name: string;
  side: Side;
  /** Touches a keyword check:breaking judges as both narrowing and widening (docs/decisions.md, D31). */
  opaque: boolean;
  apply(doc: Doc): void;
}

/** The component each side's body is. */
export const BODY: Record<Side, string> = { request: "UpdateFileRequest", response: "FileMetadata" };

const OPAQUE_KEYWORDS = [
  "pattern",
  "format",
  "multipleOf",
  "not",
  "contains",
  "propertyNames",
  "patternProperties",
  "dependentRequired",
];

/** Every edit of the catalogue: keywords × the properties of both bodies × a few values each. */
export function schemaEdits(): SchemaEdit[] {
  const edits: SchemaEdit[] = [];
  const body = (d: Doc, side: Side) => d.components.schemas[BODY[side]];
  const add = (side: Side, name: string, keyword: string, apply: (d: Doc) => void) =>
    edits.push({ name: `${side}: ${name}`, side, opaque: OPAQUE_KEYWORDS.includes(keyword), apply });
  const strings: Array<[Side, string]> = [
    ["request", "publicUrl"],
    ["response", "name"],
    ["response", "publicUrl"],
    ["response", "id"],
  ];
  for (const [side, prop] of strings) {
    const at = (d: Doc) => body(d, side).properties[prop];
    for (const n of [0, 1, 5, 300]) {
      add(side, `${prop} minLength ${n}`, "minLength", (d) => (at(d).minLength = n));
      add(side, `${prop} maxLength ${n}`, "maxLength", (d) => (at(d).maxLength = n));
    }
    add(side, `${prop} loses minLength`, "minLength", (d) => delete at(d).minLength);
    add(side, `${prop} enum`, "enum", (d) => (at(d).enum = ["a", "b"]));
    add(side, `${prop} const`, "const", (d) => (at(d).const = "a"));
    add(side, `${prop} may be null`, "type", (d) => (at(d).type = ["string", "null"]));
    add(side, `${prop} becomes an integer`, "type", (d) => (at(d).type = "integer"));
    add(side, `${prop} loses its type`, "type", (d) => delete at(d).type);
    add(side, `${prop} is removed`, "properties", (d) => delete body(d, side).properties[prop]);
    add(side, `${prop} pattern`, "pattern", (d) => (at(d).pattern = "^h"));
    add(side, `${prop} format email`, "format", (d) => (at(d).format = "email"));
    add(side, `${prop} not empty`, "not", (d) => (at(d).not = { const: "" }));
    add(side, `${prop} allOf maxLength 10`, "allOf", (d) => (at(d).allOf = [{ maxLength: 10 }]));
    add(side, `${prop} anyOf string or integer`, "anyOf", (d) =>
      Object.assign(at(d), { type: undefined, anyOf: [{ type: "string" }, { type: "integer" }] }),
    );
  }
  for (const side of ["request", "response"] as const) {
    const labels = (d: Doc) => body(d, side).properties.labels;
    for (const n of [0, 1, 5]) {
      add(side, `labels maxItems ${n}`, "maxItems", (d) => (labels(d).maxItems = n));
      add(side, `labels minItems ${n}`, "minItems", (d) => (labels(d).minItems = n));
    }
    add(side, "labels uniqueItems", "uniqueItems", (d) => (labels(d).uniqueItems = true));
    add(side, "labels uniqueItems false", "uniqueItems", (d) => (labels(d).uniqueItems = false));
    add(side, "a label maxLength 3", "maxLength", (d) => (labels(d).items.maxLength = 3));
    add(side, "a label may be an integer", "type", (d) => (labels(d).items.type = ["string", "integer"]));
    add(side, "labels lose items", "items", (d) => delete labels(d).items);
    add(
      side,
      "a label oneOf string or integer",
      "oneOf",
      (d) => (labels(d).items = { oneOf: [{ type: "string" }, { type: "integer" }] }),
    );
    // Overlapping branches: a short string matches both, and oneOf then refuses it.
    add(
      side,
      "a label oneOf string or short string",
      "oneOf",
      (d) => (labels(d).items = { type: "string", oneOf: [{ type: "string" }, { maxLength: 3 }] }),
    );
    add(
      side,
      "a label anyOf string or short string",
      "anyOf",
      (d) => (labels(d).items = { type: "string", anyOf: [{ type: "string" }, { maxLength: 3 }] }),
    );
    add(
      side,
      "a label anyOf short or long",
      "anyOf",
      (d) => (labels(d).items = { type: "string", anyOf: [{ maxLength: 3 }, { minLength: 4 }] }),
    );
    add(
      side,
      "a label oneOf short or integer",
      "oneOf",
      (d) => (labels(d).items = { oneOf: [{ type: "string", maxLength: 3 }, { type: "integer" }] }),
    );
    add(side, "labels contain 'a'", "contains", (d) => (labels(d).contains = { const: "a" }));
    add(
      side,
      "labels required",
      "required",
      (d) => (body(d, side).required = [...new Set([...(body(d, side).required ?? []), "labels"])]),
    );
    add(side, "an optional field is added", "properties", (d) => (body(d, side).properties.etag = { type: "string" }));
    add(side, "unknown fields refused", "additionalProperties", (d) => (body(d, side).additionalProperties = false));
    add(side, "unknown fields allowed", "additionalProperties", (d) => (body(d, side).additionalProperties = true));
    add(
      side,
      "unknown fields must be strings",
      "additionalProperties",
      (d) => (body(d, side).additionalProperties = { type: "string" }),
    );
    add(side, "at most 3 fields", "maxProperties", (d) => (body(d, side).maxProperties = 3));
    add(
      side,
      "field names are lower case",
      "propertyNames",
      (d) => (body(d, side).propertyNames = { pattern: "^[a-z]+$" }),
    );
  }
  const size = (d: Doc) => body(d, "response").properties.size;
  for (const n of [0, 1, 5]) {
    add("response", `size minimum ${n}`, "minimum", (d) => (size(d).minimum = n));
    add("response", `size maximum ${n}`, "maximum", (d) => (size(d).maximum = n));
    add("response", `size exclusiveMinimum ${n - 1} instead of minimum`, "exclusiveMinimum", (d) => {
      delete size(d).minimum;
      size(d).exclusiveMinimum = n - 1;
    });
  }
  add("response", "size loses minimum", "minimum", (d) => delete size(d).minimum);
  add("response", "size may be a fraction", "type", (d) => (size(d).type = "number"));
  add("response", "size multipleOf 2", "multipleOf", (d) => (size(d).multipleOf = 2));
  add(
    "response",
    "created_at loses its pattern",
    "pattern",
    (d) => delete body(d, "response").properties.created_at.pattern,
  );
  add(
    "response",
    "name no longer required",
    "required",
    (d) => (body(d, "response").required = body(d, "response").required.filter((r: string) => r !== "name")),
  );
  return edits;
}
