/**
 * Compares two bundled OpenAPI 3.1 documents by direction. A request change breaks existing clients when the new
 * spec accepts less than the old; a response change breaks them when the new spec may send more. Operations are
 * matched by method and path shape (`/files/{}`), so renaming a path parameter changes nothing; components are
 * compared through their references, never by their names.
 */
import { escapeSegment, followRefs } from "../../lib/openapi/json-pointer.ts";
import { HTTP_METHODS } from "../../lib/openapi/methods.ts";

type Node = Record<string, unknown>;
type Doc = Node & { paths?: Record<string, Node>; components?: Node };

/** One difference, where it is in both specs, and what it does to existing clients. */
export interface SpecChange {
  /** `breaking`: existing clients may break; `addition`: something new they may use; `compatible`: neither. */
  kind: "breaking" | "addition" | "compatible";
  /** The operation, as `METHOD /path (operationId)`. */
  operation: string;
  /** JSON pointers (`#/paths/...`) in the old and in the new spec; "" where it has no counterpart. */
  oldPointer: string;
  newPointer: string;
  reason: string;
}

/** The release a set of changes needs: major for a break, minor for an addition, patch otherwise. */
export type Bump = "major" | "minor" | "patch";

/** A change as `check:breaking` prints it: its kind, the operation, its pointer in both specs (or -), and why. */
export const formatChange = (change: SpecChange): string =>
  `${change.kind.toUpperCase()} ${change.operation} | old ${change.oldPointer || "-"} | new ${change.newPointer || "-"} | ${change.reason}`;

const shape = (path: string) => path.replace(/\{[^}]*\}/g, "{}");

/** Follows local $refs; `pointer` follows them too, so that a change names the component where it is. */
function resolve(doc: Doc, node: unknown, pointer: string): { node: Node; pointer: string } {
  const found = followRefs(doc, node, pointer);
  return { node: (found.node ?? {}) as Node, pointer: found.pointer };
}

/** What a schema change does to the set of values it allows. */
interface Effect {
  /** Some value the old schema allowed is no longer allowed. */
  narrows: boolean;
  /** Some value the old schema ruled out is now allowed. */
  widens: boolean;
  what: string;
}

const typesOf = (schema: Node): Set<string> | undefined => {
  if (schema.type === undefined) return undefined;
  const types = new Set(([] as string[]).concat(schema.type as string | string[]));
  if (types.has("number")) types.add("integer");
  return types;
};
const subset = <T>(a: Set<T>, b: Set<T>) => [...a].every((x) => b.has(x));
const json = (value: unknown) => JSON.stringify(value);

// Bounds: a higher minimum or a lower maximum allows fewer values. Counts and lengths start at 0, so an absent lower
// bound is 0; numbers have inclusive and exclusive bounds, compared as one (numericBound).
const LOWER_BOUNDS = ["minLength", "minItems", "minProperties", "minContains"];
const UPPER_BOUNDS = ["maxLength", "maxItems", "maxProperties", "maxContains"];
// Keywords whose any change may both allow and forbid values (a new pattern is neither wider nor narrower). For the
// applicators among them (contains, not, if/then/else, ...) a change is judged the same way: in both directions.
const OPAQUE = [
  "pattern",
  "format",
  "multipleOf",
  "contains",
  "prefixItems",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "propertyNames",
  "patternProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
];

/** Whether index `at` of a pattern is inside a character class (`[...]`), where `?` is a character like any other. */
function inCharacterClass(pattern: string, at: number): boolean {
  let inside = false;
  for (let i = 0; i < at; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "[") inside = true;
    else if (pattern[i] === "]") inside = false;
  }
  return inside;
}

/**
 * Whether pattern `b` is pattern `a` with one `?` quantifier taken out (`X?` became `X`): every string `b` matches,
 * `a` matches too, so the change narrows. Not a `?` of a group's opening (`(?:`), a lazy quantifier's (`*?`), an
 * escaped one (`\?`) or one inside a character class: those change what is matched otherwise.
 */
export function optionalMadeRequired(a: string, b: string): boolean {
  if (a.length !== b.length + 1) return false;
  for (let i = 1; i < a.length; i++) {
    if (a[i] !== "?" || `${a.slice(0, i)}${a.slice(i + 1)}` !== b || "(*+?}".includes(a[i - 1]!)) continue;
    let backslashes = 0;
    for (let j = i - 1; j >= 0 && a[j] === "\\"; j--) backslashes++;
    if (backslashes % 2 === 0 && !inCharacterClass(a, i)) return true;
  }
  return false;
}

type Side = "lower" | "upper";
type Bound = { value: number; exclusive: boolean };

/** Whether bound `a` allows fewer values than `b`: further in, or as far and exclusive where `b` is inclusive. */
const tighter = (side: Side, a: Bound, b: Bound): boolean =>
  a.value === b.value ? a.exclusive && !b.exclusive : side === "lower" ? a.value > b.value : a.value < b.value;

/** A schema's numeric lower or upper bound, inclusive and exclusive keywords taken together; none is ±Infinity. */
function numericBound(schema: Node, side: Side): Bound {
  const [inclusive, exclusive] =
    side === "lower" ? [schema.minimum, schema.exclusiveMinimum] : [schema.maximum, schema.exclusiveMaximum];
  const none = { value: side === "lower" ? -Infinity : Infinity, exclusive: false };
  const candidates = [
    typeof inclusive === "number" ? { value: inclusive, exclusive: false } : none,
    typeof exclusive === "number" ? { value: exclusive, exclusive: true } : none,
  ];
  // Integers only: every bound becomes the nearest integer inside it, inclusive (exclusiveMinimum 0 is minimum 1).
  const integers =
    typesOf(schema)?.has("integer") && !([] as string[]).concat(schema.type as string[]).includes("number");
  const inside = (b: Bound): Bound => {
    if (!integers || !Number.isFinite(b.value)) return b;
    if (side === "lower")
      return { value: b.exclusive ? Math.floor(b.value) + 1 : Math.ceil(b.value), exclusive: false };
    return { value: b.exclusive ? Math.ceil(b.value) - 1 : Math.floor(b.value), exclusive: false };
  };
  const [a, b] = candidates.map(inside) as [Bound, Bound];
  return tighter(side, a, b) ? a : b;
}
const showBound = (b: Bound, side: Side) =>
  Number.isFinite(b.value)
    ? `${side === "lower" ? (b.exclusive ? ">" : ">=") : b.exclusive ? "<" : "<="} ${b.value}`
    : "none";

const BRANCHING = ["oneOf", "anyOf"] as const;

/** A branch of a oneOf/anyOf with the keywords beside it, as one schema: what a value matching that branch must meet. */
function withSiblings(doc: Doc, schema: Node, branch: unknown, pointer: string): Node {
  const { node } = resolve(doc, branch, pointer);
  const { oneOf: _oneOf, anyOf: _anyOf, ...siblings } = schema;
  const merged: Node = { ...siblings, ...node };
  const [a, b] = [typesOf(siblings), typesOf(node)];
  if (a && b) merged.type = [...a].filter((t) => b.has(t) && !(t === "integer" && a.has("number") && b.has("number")));
  if (siblings.required || node.required)
    merged.required = [
      ...new Set([...((siblings.required as string[]) ?? []), ...((node.required as string[]) ?? [])]),
    ];
  if (siblings.properties && node.properties)
    merged.properties = { ...(siblings.properties as Node), ...(node.properties as Node) };
  return merged;
}

/** Whether no value can match two of these schemas, as far as their types tell. */
function typeDisjoint(schemas: Node[]): boolean {
  const types = schemas.map(typesOf);
  return types.every(
    (a, i) => a !== undefined && types.slice(i + 1).every((b) => b !== undefined && [...a].every((t) => !b.has(t))),
  );
}

/** Compares two schemas keyword by keyword, recursing into properties, items and branches; calls `report` per effect. */
function compareSchemas(
  docs: { old: Doc; new: Doc },
  oldRef: { node: unknown; pointer: string },
  newRef: { node: unknown; pointer: string },
  report: (effect: Effect, oldPointer: string, newPointer: string) => void,
  seen = new Set<string>(),
): void {
  const before = resolve(docs.old, oldRef.node, oldRef.pointer);
  const after = resolve(docs.new, newRef.node, newRef.pointer);
  const key = `${before.pointer}|${after.pointer}`;
  if (seen.has(key)) return;
  seen.add(key);
  const [o, n, op, np] = [before.node, after.node, before.pointer, after.pointer];
  const at = (keyword: string) => [`${op}/${keyword}`, `${np}/${keyword}`] as const;
  const emit = (keyword: string, narrows: boolean, widens: boolean, what: string) => {
    if (narrows || widens) report({ narrows, widens, what }, ...at(keyword));
  };
  // What one schema does to the values of another, as a whole: a comparison of its own with the effects collected.
  const effectOf = (a: { node: unknown; pointer: string }, b: { node: unknown; pointer: string }) => {
    const effect = { narrows: false, widens: false, what: "" };
    compareSchemas(docs, a, b, (e) => {
      effect.narrows ||= e.narrows;
      effect.widens ||= e.widens;
      effect.what ||= e.what;
    });
    return effect;
  };

  // A oneOf/anyOf that appears (or goes): the schema becomes the union of its branches, each with the keywords beside
  // it, so it is compared as such, branch by branch, not keyword by keyword.
  const introduced = BRANCHING.find((k) => !o.oneOf && !o.anyOf && Array.isArray(n[k]));
  const dropped = BRANCHING.find((k) => Array.isArray(o[k]) && !n.oneOf && !n.anyOf);
  if (introduced || dropped) {
    const keyword = (introduced ?? dropped)!;
    const [doc, schema, pointer] = introduced ? [docs.new, n, np] : [docs.old, o, op];
    const branches = (schema[keyword] as unknown[]).map((b, i) => ({
      node: withSiblings(doc, schema, b, `${pointer}/${keyword}/${i}`),
      pointer: `${pointer}/${keyword}/${i}`,
    }));
    const effects = branches.map((b) =>
      introduced ? effectOf({ node: o, pointer: op }, b) : effectOf(b, { node: n, pointer: np }),
    );
    // Introduced: the new values are those of some branch, so it widens when a branch does, and narrows unless one
    // branch keeps every old value (or, for oneOf, when two branches may both match a value, which is then refused).
    // Dropped: the mirror image.
    const exclusive = keyword === "oneOf" && !typeDisjoint(branches.map((b) => b.node));
    const some = (side: "narrows" | "widens") => effects.some((e) => e[side]);
    const every = (side: "narrows" | "widens") => effects.every((e) => e[side]);
    const [narrows, widens] = introduced
      ? [every("narrows") || exclusive, some("widens")]
      : [some("narrows"), every("widens") || exclusive];
    emit(
      keyword,
      narrows,
      widens,
      `${keyword} ${introduced ? "was added" : "was removed"} (${(schema[keyword] as unknown[]).length} branches)`,
    );
    return;
  }

  const [oldTypes, newTypes] = [typesOf(o), typesOf(n)];
  if (oldTypes || newTypes) {
    const narrows = newTypes !== undefined && (oldTypes === undefined || !subset(oldTypes, newTypes));
    const widens = oldTypes !== undefined && (newTypes === undefined || !subset(newTypes, oldTypes));
    emit("type", narrows, widens, `type ${json(o.type ?? "any")} became ${json(n.type ?? "any")}`);
  }
  for (const keyword of ["enum", "const"]) {
    const [a, b] = [o[keyword], n[keyword]];
    if (json(a) === json(b)) continue;
    const values = (v: unknown) => new Set((keyword === "const" ? [v] : (v as unknown[])).map(json));
    const narrows = b !== undefined && (a === undefined || !subset(values(a), values(b)));
    const widens = a !== undefined && (b === undefined || !subset(values(b), values(a)));
    emit(keyword, narrows, widens, `${keyword} ${json(a ?? "none")} became ${json(b ?? "none")}`);
  }
  // A closed object (no other property allowed) has at most as many properties as it names.
  const fieldCap = (schema: Node) =>
    schema.additionalProperties === false && schema.patternProperties === undefined
      ? Object.keys((schema.properties ?? {}) as Node).length
      : Infinity;
  for (const keyword of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const lower = LOWER_BOUNDS.includes(keyword);
    const none = lower ? 0 : Infinity;
    const bound = (schema: Node) => {
      const declared = (schema[keyword] as number | undefined) ?? none;
      return keyword === "maxProperties" ? Math.min(declared, fieldCap(schema)) : declared;
    };
    // The cap matters only against a declared maxProperties; otherwise added or removed properties say it all.
    if (keyword === "maxProperties" && o.maxProperties === undefined && n.maxProperties === undefined) continue;
    const [a, b] = [bound(o), bound(n)];
    if (a === b) continue;
    // A tighter bound narrows, a looser one widens.
    emit(
      keyword,
      lower ? b > a : b < a,
      lower ? b < a : b > a,
      `${keyword} ${o[keyword] ?? "none"} became ${n[keyword] ?? "none"}`,
    );
  }
  for (const side of ["lower", "upper"] as const) {
    const [a, b] = [numericBound(o, side), numericBound(n, side)];
    if (a.value === b.value && a.exclusive === b.exclusive) continue;
    const keyword =
      side === "lower"
        ? n.exclusiveMinimum !== undefined
          ? "exclusiveMinimum"
          : "minimum"
        : n.exclusiveMaximum !== undefined
          ? "exclusiveMaximum"
          : "maximum";
    emit(
      keyword,
      tighter(side, b, a),
      tighter(side, a, b),
      `the ${side} bound ${showBound(a, side)} became ${showBound(b, side)}`,
    );
  }
  if (Boolean(o.uniqueItems) !== Boolean(n.uniqueItems)) {
    emit(
      "uniqueItems",
      Boolean(n.uniqueItems),
      Boolean(o.uniqueItems),
      `uniqueItems ${Boolean(o.uniqueItems)} became ${Boolean(n.uniqueItems)}`,
    );
  }
  for (const keyword of OPAQUE) {
    const [a, b] = [o[keyword], n[keyword]];
    if (json(a) === json(b)) continue;
    const said = `${keyword} ${json(a ?? "none")} became ${json(b ?? "none")}`;
    // The one change of a pattern proven to go one way: an optional part made required narrows (X? became X).
    if (keyword === "pattern" && typeof a === "string" && typeof b === "string" && optionalMadeRequired(a, b))
      emit(keyword, true, false, `${said} (an optional part became required)`);
    else emit(keyword, b !== undefined, a !== undefined, said);
  }

  const oldRequired = new Set((o.required as string[] | undefined) ?? []);
  const newRequired = new Set((n.required as string[] | undefined) ?? []);
  for (const name of newRequired) if (!oldRequired.has(name)) emit("required", true, false, `${name} became required`);
  for (const name of oldRequired)
    if (!newRequired.has(name)) emit("required", false, true, `${name} is no longer required`);

  const oldProps = (o.properties ?? {}) as Node;
  const newProps = (n.properties ?? {}) as Node;
  const closed = (schema: Node) => schema.additionalProperties === false;
  for (const name of new Set([...Object.keys(oldProps), ...Object.keys(newProps)])) {
    const [ap, bp] = [`${op}/properties/${escapeSegment(name)}`, `${np}/properties/${escapeSegment(name)}`];
    if (name in oldProps && name in newProps) {
      compareSchemas(docs, { node: oldProps[name], pointer: ap }, { node: newProps[name], pointer: bp }, report, seen);
    } else if (name in newProps) {
      // A new property: where the old schema was closed, the value was ruled out and now is allowed (but only
      // as the new property's schema allows); where it was open, anything was allowed and now less is.
      report({ narrows: !closed(o), widens: closed(o), what: `property ${name} was added` }, op, bp);
    } else {
      report({ narrows: closed(n), widens: !closed(n), what: `property ${name} was removed` }, ap, np);
    }
  }
  const [oldExtra, newExtra] = [o.additionalProperties, n.additionalProperties];
  if (json(oldExtra) !== json(newExtra)) {
    if (typeof oldExtra === "object" && typeof newExtra === "object") {
      compareSchemas(
        docs,
        { node: oldExtra, pointer: `${op}/additionalProperties` },
        { node: newExtra, pointer: `${np}/additionalProperties` },
        report,
        seen,
      );
    } else {
      // false allows no other property, true (or absent) any, a schema some.
      const rank = (v: unknown) => (v === false ? 0 : v === undefined || v === true ? 2 : 1);
      emit(
        "additionalProperties",
        rank(newExtra) < rank(oldExtra),
        rank(newExtra) > rank(oldExtra),
        `additionalProperties ${json(oldExtra ?? true)} became ${json(newExtra ?? true)}`,
      );
    }
  }
  if (o.items !== undefined || n.items !== undefined) {
    if (o.items !== undefined && n.items !== undefined)
      compareSchemas(
        docs,
        { node: o.items, pointer: `${op}/items` },
        { node: n.items, pointer: `${np}/items` },
        report,
        seen,
      );
    else
      emit(
        "items",
        n.items !== undefined,
        o.items !== undefined,
        `items ${o.items === undefined ? "was added" : "was removed"}`,
      );
  }
  {
    // allOf: every branch must hold, so a new branch narrows and one gone widens; kept branches by position.
    const [a, b] = [(o.allOf as unknown[] | undefined) ?? [], (n.allOf as unknown[] | undefined) ?? []];
    for (let i = 0; json(a) !== json(b) && i < Math.max(a.length, b.length); i++) {
      const [ai, bi] = [`${op}/allOf/${i}`, `${np}/allOf/${i}`];
      if (i < a.length && i < b.length)
        compareSchemas(docs, { node: a[i], pointer: ai }, { node: b[i], pointer: bi }, report, seen);
      else if (i < a.length) report({ narrows: false, widens: true, what: `allOf branch ${i} was removed` }, ai, np);
      else report({ narrows: true, widens: false, what: `allOf branch ${i} was added` }, op, bi);
    }
  }
  for (const keyword of BRANCHING) {
    const [a, b] = [(o[keyword] as unknown[] | undefined) ?? [], (n[keyword] as unknown[] | undefined) ?? []];
    if (json(a) === json(b)) continue;
    // Branches are matched by position; one that is gone narrows, one that is new widens. For oneOf, whose branches
    // may overlap (a value matching two is refused), any change of a branch does both unless the branches are
    // disjoint by type, before and after.
    const overlapping =
      keyword === "oneOf" &&
      !(
        typeDisjoint(a.map((x, i) => withSiblings(docs.old, o, x, `${op}/oneOf/${i}`))) &&
        typeDisjoint(b.map((x, i) => withSiblings(docs.new, n, x, `${np}/oneOf/${i}`)))
      );
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const [ai, bi] = [`${op}/${keyword}/${i}`, `${np}/${keyword}/${i}`];
      if (i < a.length && i < b.length) {
        if (!overlapping) compareSchemas(docs, { node: a[i], pointer: ai }, { node: b[i], pointer: bi }, report, seen);
        else if (json(a[i]) !== json(b[i]))
          report(
            { narrows: true, widens: true, what: `oneOf branch ${i} changed, and the branches may overlap` },
            ai,
            bi,
          );
      } else if (i < a.length)
        report({ narrows: true, widens: overlapping, what: `${keyword} branch ${i} was removed` }, ai, np);
      else report({ narrows: overlapping, widens: true, what: `${keyword} branch ${i} was added` }, op, bi);
    }
  }
}

/** The operations of a document by method and path shape. */
function operationsOf(doc: Doc): Map<string, { path: string; method: string; item: Node; op: Node }> {
  const out = new Map<string, { path: string; method: string; item: Node; op: Node }>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as Node | undefined;
      if (op) out.set(`${method.toUpperCase()} ${shape(path)}`, { path, method, item, op });
    }
  }
  return out;
}

/** The parameters of an operation (path item's and its own), keyed so that a path parameter's name does not matter. */
function parametersOf(
  doc: Doc,
  path: string,
  method: string,
  item: Node,
  op: Node,
): Map<string, { param: Node; pointer: string }> {
  const pathParams = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const out = new Map<string, { param: Node; pointer: string }>();
  const add = (list: unknown, base: string) =>
    ((list as unknown[] | undefined) ?? []).forEach((raw, i) => {
      const { node: param, pointer } = resolve(doc, raw, `${base}/parameters/${i}`);
      const key =
        param.in === "path"
          ? `path #${pathParams.indexOf(param.name as string)}`
          : `${String(param.in)} ${String(param.name).toLowerCase()}`;
      out.set(key, { param, pointer });
    });
  add(item.parameters, `#/paths/${escapeSegment(path)}`);
  add(op.parameters, `#/paths/${escapeSegment(path)}/${method}`);
  return out;
}

/** Whether a documented status key covers a status key of the other spec ("5XX" covers "503", "default" all). */
const covers = (keys: string[], status: string) =>
  keys.includes(status) ||
  keys.includes("default") ||
  (/^\d{3}$/.test(status) && keys.some((k) => k.toUpperCase() === `${status[0]}XX`));

/** The security requirements in force for an operation, as sorted scheme names per alternative. */
function securityOf(doc: Doc, op: Node): string[] {
  const requirements = ((op.security ?? doc.security ?? []) as Node[]).map((req) => Object.keys(req).sort().join("+"));
  return [...new Set(requirements)].sort();
}

/** Every difference between two documents' operations that matters to clients, judged by direction. */
export function compareSpecs(oldDoc: Doc, newDoc: Doc): SpecChange[] {
  const changes: SpecChange[] = [];
  const docs = { old: oldDoc, new: newDoc };
  const [oldOps, newOps] = [operationsOf(oldDoc), operationsOf(newDoc)];

  for (const [key, next] of newOps) {
    if (!oldOps.has(key)) {
      const name = `${next.method.toUpperCase()} ${next.path}${typeof next.op.operationId === "string" ? ` (${next.op.operationId})` : ""}`;
      changes.push({
        kind: "addition",
        operation: name,
        oldPointer: "",
        newPointer: `#/paths/${escapeSegment(next.path)}/${next.method}`,
        reason: "a new operation",
      });
    }
  }

  for (const [key, prev] of oldOps) {
    const name = `${prev.method.toUpperCase()} ${prev.path}${typeof prev.op.operationId === "string" ? ` (${prev.op.operationId})` : ""}`;
    const oldOpPointer = `#/paths/${escapeSegment(prev.path)}/${prev.method}`;
    const next = newOps.get(key);
    const add = (kind: SpecChange["kind"], oldPointer: string, newPointer: string, reason: string) =>
      changes.push({ kind, operation: name, oldPointer, newPointer, reason });
    if (!next) {
      add("breaking", oldOpPointer, "", "the operation was removed: existing clients calling it get an error");
      continue;
    }
    const newOpPointer = `#/paths/${escapeSegment(next.path)}/${next.method}`;
    // Requests: the new spec must accept everything the old one did.
    const requestEffect = (effect: Effect, oldPointer: string, newPointer: string, where: string) =>
      effect.narrows
        ? add(
            "breaking",
            oldPointer,
            newPointer,
            `${where}: ${effect.what}; the new spec rejects requests the old one accepted, so existing clients sending them break`,
          )
        : add("addition", oldPointer, newPointer, `${where}: ${effect.what}; the new spec accepts more requests`);
    // Responses: the new spec must not send anything the old one ruled out.
    const responseEffect = (effect: Effect, oldPointer: string, newPointer: string, where: string) =>
      effect.widens
        ? add(
            "breaking",
            oldPointer,
            newPointer,
            `${where}: ${effect.what}; the new spec may answer what the old one ruled out, which existing clients do not expect`,
          )
        : add(
            "compatible",
            oldPointer,
            newPointer,
            `${where}: ${effect.what}; the answers the new spec allows are a subset of the old`,
          );

    const oldParams = parametersOf(oldDoc, prev.path, prev.method, prev.item, prev.op);
    const newParams = parametersOf(newDoc, next.path, next.method, next.item, next.op);
    for (const [id, { param, pointer }] of newParams) {
      const before = oldParams.get(id);
      if (!before) {
        if (param.required)
          add("breaking", "", pointer, `parameter ${id} is new and required: existing clients do not send it`);
        else add("addition", "", pointer, `parameter ${id} is new and optional`);
        continue;
      }
      if (param.required && !before.param.required)
        add("breaking", before.pointer, pointer, `parameter ${id} became required: existing clients may not send it`);
      compareSchemas(
        docs,
        { node: before.param.schema, pointer: `${before.pointer}/schema` },
        { node: param.schema, pointer: `${pointer}/schema` },
        (e, a, b) => requestEffect(e, a, b, `parameter ${id}`),
      );
    }
    for (const [id, { pointer }] of oldParams)
      if (!newParams.has(id))
        add("compatible", pointer, "", `parameter ${id} was removed: the server no longer reads it`);

    const oldBody = resolve(oldDoc, prev.op.requestBody, `${oldOpPointer}/requestBody`);
    const newBody = resolve(newDoc, next.op.requestBody, `${newOpPointer}/requestBody`);
    if (!oldBody.node.required && newBody.node.required)
      add(
        "breaking",
        oldBody.pointer,
        newBody.pointer,
        "the request body became required: existing clients may send none",
      );
    if (oldBody.node.required && !newBody.node.required)
      add(
        "addition",
        oldBody.pointer,
        newBody.pointer,
        "the request body became optional: the new spec accepts more requests",
      );
    const oldContent = (oldBody.node.content ?? {}) as Record<string, Node>;
    const newContent = (newBody.node.content ?? {}) as Record<string, Node>;
    for (const [mediaType, media] of Object.entries(oldContent)) {
      const [ap, bp] = [
        `${oldBody.pointer}/content/${escapeSegment(mediaType)}`,
        `${newBody.pointer}/content/${escapeSegment(mediaType)}`,
      ];
      if (!newContent[mediaType])
        add("breaking", ap, newBody.pointer, `the request body is no longer accepted as ${mediaType}`);
      else
        compareSchemas(
          docs,
          { node: media.schema, pointer: `${ap}/schema` },
          { node: newContent[mediaType].schema, pointer: `${bp}/schema` },
          (e, a, b) => requestEffect(e, a, b, `request body ${mediaType}`),
        );
    }
    for (const mediaType of Object.keys(newContent)) {
      if (!oldContent[mediaType])
        add(
          "addition",
          oldBody.pointer,
          `${newBody.pointer}/content/${escapeSegment(mediaType)}`,
          `the request body is now also accepted as ${mediaType}`,
        );
    }

    const [oldSecurity, newSecurity] = [securityOf(oldDoc, prev.op), securityOf(newDoc, next.op)];
    // An alternative that is gone, or requirements where there were none, turn away clients that met the old ones.
    // No requirement, or an empty alternative ({}), lets every request through: nothing is turned away then.
    const open = (security: string[]) => security.length === 0 || security.includes("");
    const lost = open(newSecurity)
      ? []
      : open(oldSecurity)
        ? ["(no credentials)"]
        : oldSecurity.filter((alt) => !newSecurity.includes(alt));
    if (lost.length > 0)
      add(
        "breaking",
        `${oldOpPointer}/security`,
        `${newOpPointer}/security`,
        `security requirements changed from ${json(oldSecurity)} to ${json(newSecurity)}: clients that met ${lost.join(", ")} are turned away`,
      );
    else if (json(oldSecurity) !== json(newSecurity))
      add(
        "addition",
        `${oldOpPointer}/security`,
        `${newOpPointer}/security`,
        `security requirements changed from ${json(oldSecurity)} to ${json(newSecurity)}: every client that passed still passes`,
      );
    for (const scheme of new Set(oldSecurity.flatMap((alt) => alt.split("+")).filter(Boolean))) {
      const [a, b] = [
        (oldDoc.components?.securitySchemes as Node | undefined)?.[scheme] as Node | undefined,
        (newDoc.components?.securitySchemes as Node | undefined)?.[scheme] as Node | undefined,
      ];
      const essentials = (s: Node | undefined) =>
        json(s && { type: s.type, scheme: String(s.scheme ?? "").toLowerCase(), in: s.in, name: s.name });
      if (b && essentials(a) !== essentials(b))
        add(
          "breaking",
          `#/components/securitySchemes/${escapeSegment(scheme)}`,
          `#/components/securitySchemes/${escapeSegment(scheme)}`,
          `security scheme ${scheme} changed from ${essentials(a)} to ${essentials(b)}: existing clients send credentials the old way`,
        );
    }

    const oldResponses = (prev.op.responses ?? {}) as Record<string, unknown>;
    const newResponses = (next.op.responses ?? {}) as Record<string, unknown>;
    for (const status of Object.keys(newResponses)) {
      if (!covers(Object.keys(oldResponses), status))
        add(
          "breaking",
          `${oldOpPointer}/responses`,
          `${newOpPointer}/responses/${escapeSegment(status)}`,
          `response ${status} is new: existing clients do not expect it`,
        );
    }
    for (const [status, response] of Object.entries(oldResponses)) {
      if (!(status in newResponses)) {
        // The server promises not to send it any more: clients that handle it lose nothing (docs/decisions.md, D31).
        add(
          "compatible",
          `${oldOpPointer}/responses/${escapeSegment(status)}`,
          `${newOpPointer}/responses`,
          `response ${status} is no longer documented: the server sends less`,
        );
        continue;
      }
      const before = resolve(oldDoc, response, `${oldOpPointer}/responses/${escapeSegment(status)}`);
      const after = resolve(newDoc, newResponses[status], `${newOpPointer}/responses/${escapeSegment(status)}`);
      const [oldMedia, newMedia] = [
        (before.node.content ?? {}) as Record<string, Node>,
        (after.node.content ?? {}) as Record<string, Node>,
      ];
      for (const mediaType of Object.keys(newMedia)) {
        if (!oldMedia[mediaType])
          add(
            "breaking",
            before.pointer,
            `${after.pointer}/content/${escapeSegment(mediaType)}`,
            `response ${status} may now come as ${mediaType}, which existing clients do not read`,
          );
      }
      for (const [mediaType, media] of Object.entries(oldMedia)) {
        const [ap, bp] = [
          `${before.pointer}/content/${escapeSegment(mediaType)}`,
          `${after.pointer}/content/${escapeSegment(mediaType)}`,
        ];
        // Content negotiation: a client that asks for this form (Accept) now gets another, or a 406 (docs/decisions.md, D31).
        if (!newMedia[mediaType])
          add(
            "breaking",
            ap,
            after.pointer,
            `response ${status} no longer comes as ${mediaType}: clients that ask for it get another form or 406`,
          );
        else
          compareSchemas(
            docs,
            { node: media.schema, pointer: `${ap}/schema` },
            { node: newMedia[mediaType].schema, pointer: `${bp}/schema` },
            (e, a, b) => responseEffect(e, a, b, `response ${status} ${mediaType}`),
          );
      }
    }
  }
  return changes;
}

/** The release the changes need. */
export const requiredBump = (changes: SpecChange[]): Bump =>
  changes.some((c) => c.kind === "breaking") ? "major" : changes.some((c) => c.kind === "addition") ? "minor" : "patch";

/** Whether `next` (semver) is a release of at least `bump` after `previous`; with no change, the same version will do. */
export function followsBump(previous: string, next: string, bump: Bump, changed: boolean): boolean {
  const [a, b] = [previous, next].map((v) => v.split(/[.-]/).slice(0, 3).map(Number)) as [number[], number[]];
  const order = b[0]! - a[0]! || b[1]! - a[1]! || b[2]! - a[2]!;
  if (bump === "major") return b[0]! > a[0]!;
  if (bump === "minor") return b[0]! > a[0]! || (b[0] === a[0] && b[1]! > a[1]!);
  return changed ? order > 0 : order >= 0;
}
