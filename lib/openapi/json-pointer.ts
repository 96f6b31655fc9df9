/** JSON Pointers (RFC 6901) into the bundled spec: escaping a segment, reading the node a pointer names, following local $refs. */

/** A key as one segment of a pointer: `~` and `/` escaped. */
export const escapeSegment = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** A segment of a pointer back to its key. */
export const unescapeSegment = (segment: string): string => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/** The node at a pointer (with or without its leading `#`) in a document, or undefined where the path leads nowhere. */
export function nodeAt(document: unknown, pointer: string): unknown {
  let current = document;
  for (const segment of pointer.replace(/^#?\//, "").split("/")) {
    current = (current as Record<string, unknown> | undefined)?.[unescapeSegment(segment)];
  }
  return current;
}

/** A node with its local $refs followed (at most `maxDepth` of them, so that a circle ends), and the pointer it was found at. */
export function followRefs(
  document: unknown,
  node: unknown,
  pointer: string,
  maxDepth = 32,
): { node: unknown; pointer: string } {
  let current = node as { $ref?: unknown } | undefined;
  let at = pointer;
  for (let depth = 0; typeof current?.$ref === "string" && depth < maxDepth; depth++) {
    at = current.$ref;
    current = nodeAt(document, current.$ref) as { $ref?: unknown } | undefined;
  }
  return { node: current, pointer: at };
}
