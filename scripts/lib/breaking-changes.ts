/**
 * Finds breaking changes between two bundled OpenAPI 3.1 documents: what an existing client or server
 * built against the old one would no longer get or be allowed to send.
 */
type Node = Record<string, unknown>;
type Doc = { paths?: Record<string, Node> } & Node;

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

function resolve(doc: Doc, node: unknown): Node {
  let current = node as Node | undefined;
  for (let depth = 0; current && typeof current.$ref === "string" && depth < 20; depth++) {
    let target: unknown = doc;
    for (const segment of (current.$ref as string).replace(/^#\//, "").split("/")) {
      target = (target as Node | undefined)?.[segment.replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    current = target as Node | undefined;
  }
  return current ?? {};
}

const typesOf = (schema: Node): Set<string> => {
  const types = new Set(([] as string[]).concat((schema.type as string | string[] | undefined) ?? []));
  if (types.has("number")) types.add("integer");
  return types;
};

/**
 * Compares two schemas. `direction` says who must keep working: "request" (the server must still accept
 * what it accepted: nothing may narrow) or "response" (the client must still get what it was promised).
 */
function compareSchemas(oldDoc: Doc, newDoc: Doc, oldNode: unknown, newNode: unknown, where: string, direction: "request" | "response", out: string[], seen = new Set<string>()): void {
  const before = resolve(oldDoc, oldNode);
  const after = resolve(newDoc, newNode);
  const key = `${where}|${direction}`;
  if (seen.has(key)) return;
  seen.add(key);
  const [oldTypes, newTypes] = [typesOf(before), typesOf(after)];
  if (oldTypes.size > 0) {
    if (direction === "request") {
      const dropped = [...oldTypes].filter((t) => newTypes.size > 0 && !newTypes.has(t));
      if (dropped.length > 0) out.push(`${where}: no longer accepts type ${dropped.join(", ")}`);
    } else {
      const added = [...newTypes].filter((t) => !oldTypes.has(t));
      if (newTypes.size === 0 || added.length > 0) out.push(`${where}: may now be of type ${newTypes.size === 0 ? "anything" : added.join(", ")}`);
    }
  }
  const oldRequired = new Set((before.required as string[] | undefined) ?? []);
  const newRequired = new Set((after.required as string[] | undefined) ?? []);
  const oldProps = (before.properties ?? {}) as Node;
  const newProps = (after.properties ?? {}) as Node;
  if (direction === "request") {
    for (const name of newRequired) if (!oldRequired.has(name)) out.push(`${where}: ${name} is newly required`);
    for (const name of Object.keys(oldProps)) {
      if (!(name in newProps) && after.additionalProperties === false) out.push(`${where}: field ${name} was removed (it is now rejected)`);
    }
  } else {
    for (const name of oldRequired) if (!newRequired.has(name)) out.push(`${where}: ${name} is no longer always present`);
    for (const name of Object.keys(oldProps)) if (!(name in newProps)) out.push(`${where}: field ${name} was removed`);
  }
  for (const name of Object.keys(oldProps)) {
    if (name in newProps) compareSchemas(oldDoc, newDoc, oldProps[name], newProps[name], `${where}.${name}`, direction, out, seen);
  }
  if (before.items && after.items) compareSchemas(oldDoc, newDoc, before.items, after.items, `${where}[]`, direction, out, seen);
}

/** Every breaking change from `oldDoc` to `newDoc`, one readable line each. */
export function breakingChanges(oldDoc: Doc, newDoc: Doc): string[] {
  const out: string[] = [];
  for (const [path, oldItem] of Object.entries(oldDoc.paths ?? {})) {
    const newItem = (newDoc.paths ?? {})[path];
    for (const method of METHODS) {
      const oldOp = oldItem[method] as Node | undefined;
      if (!oldOp) continue;
      const newOp = newItem?.[method] as Node | undefined;
      const name = `${method.toUpperCase()} ${path}`;
      if (!newOp) {
        out.push(`${name}: the operation was removed`);
        continue;
      }
      // Parameters: a new required one, or a narrowed schema, breaks existing callers.
      const params = (item: Node | undefined, op: Node, doc: Doc) =>
        new Map([...((item?.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map((p) => resolve(doc, p)).map((p) => [`${p.in} ${p.name}`, p]));
      const oldParams = params(oldItem, oldOp, oldDoc);
      for (const [id, p] of params(newItem, newOp, newDoc)) {
        const before = oldParams.get(id);
        if (!before && p.required) out.push(`${name}: parameter ${id} is newly required`);
        if (before) compareSchemas(oldDoc, newDoc, before.schema, p.schema, `${name} parameter ${id}`, "request", out);
      }
      const oldBody = resolve(oldDoc, oldOp.requestBody);
      const newBody = resolve(newDoc, newOp.requestBody);
      if (!oldBody.required && newBody.required) out.push(`${name}: the request body is newly required`);
      for (const [mediaType, media] of Object.entries((oldBody.content ?? {}) as Node)) {
        const next = ((newBody.content ?? {}) as Node)[mediaType] as Node | undefined;
        if (!next) out.push(`${name}: request body ${mediaType} is no longer accepted`);
        else compareSchemas(oldDoc, newDoc, (media as Node).schema, next.schema, `${name} request body`, "request", out);
      }
      const oldResponses = (oldOp.responses ?? {}) as Node;
      const newResponses = (newOp.responses ?? {}) as Node;
      for (const [status, response] of Object.entries(oldResponses)) {
        if (!(status in newResponses)) {
          out.push(`${name}: response ${status} was removed`);
          continue;
        }
        const [before, after] = [resolve(oldDoc, response), resolve(newDoc, newResponses[status])];
        for (const [mediaType, media] of Object.entries((before.content ?? {}) as Node)) {
          const next = ((after.content ?? {}) as Node)[mediaType] as Node | undefined;
          if (!next) out.push(`${name}: response ${status} no longer comes as ${mediaType}`);
          else compareSchemas(oldDoc, newDoc, (media as Node).schema, next.schema, `${name} response ${status}`, "response", out);
        }
      }
    }
  }
  return out;
}
