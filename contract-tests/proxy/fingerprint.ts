import { createHash, type Hash } from "node:crypto";

/** Characters of a value's JSON kept as they are; a longer value is kept as its start and its digest. */
export const SHOWN_CHARS = 100;

/**
 * What the traffic rules keep of a JSON value instead of the value: its JSON when that is short, else the JSON's first
 * SHOWN_CHARS characters and a SHA-256 of the whole value. Two prints are equal exactly when the JSON texts of the two
 * values are (bar a digest collision), so that rules compare prints as they would compare values, and a print is also
 * what a finding shows. At most about 140 characters, whatever the value's size: memory bounded by design.
 */
export function fingerprint(value: unknown): string {
  // Stryker disable next-line BooleanLiteral: equivalent; preview sets cut before anything reads it
  const shown = { text: "", cut: false };
  preview(value, shown);
  if (!shown.cut) return shown.text;
  const hash = createHash("sha256");
  feed(hash, value);
  return `${shown.text.slice(0, SHOWN_CHARS)}… (sha256 ${hash.digest("hex").slice(0, 16)})`;
}

/**
 * Appends the value's JSON to `shown.text` until it is longer than SHOWN_CHARS (then `cut`): never the whole of a large
 * value. A string is cut before it is escaped (slicing a short one is a no-op), and a list stops before the first item
 * that starts past the cut, so that nothing past it is walked.
 */
function preview(value: unknown, shown: { text: string; cut: boolean }): void {
  // Stryker disable next-line ConditionalExpression,StringLiteral,MethodExpression: equivalent; a string stringified whole shows the same first 100 characters, the cut only spares escaping all of a long one
  if (typeof value === "string") shown.text += JSON.stringify(value.slice(0, SHOWN_CHARS + 1));
  else if (Array.isArray(value)) {
    shown.text += "[";
    for (const [i, item] of value.entries()) {
      if (i > 0) shown.text += ",";
      if (isCut(shown)) return;
      preview(item, shown);
    }
    shown.text += "]";
  } else if (typeof value === "object" && value !== null) {
    shown.text += "{";
    for (const [i, [name, item]] of Object.entries(value).entries()) {
      // Stryker disable next-line MethodExpression,ArithmeticOperator: equivalent; after the "{" a name cut to 99 characters or more, or not cut, shows the same first 100, the cut only spares escaping all of a long one
      shown.text += `${i > 0 ? "," : ""}${JSON.stringify(name.slice(0, SHOWN_CHARS + 1))}:`;
      if (isCut(shown)) return;
      preview(item, shown);
    }
    shown.text += "}";
  } else shown.text += JSON.stringify(value) ?? "undefined";
  isCut(shown);
}

/** Marks `shown` cut once its text is longer than SHOWN_CHARS; says whether it is. */
function isCut(shown: { text: string; cut: boolean }): boolean {
  shown.cut = shown.text.length > SHOWN_CHARS;
  return shown.cut;
}

/**
 * Hashes a JSON value in a form that tells any two values apart exactly when their JSON texts differ: each part tagged
 * with its type and, for strings, its length. Faster than hashing the JSON text: a string's characters are not escaped.
 */
function feed(hash: Hash, value: unknown): void {
  if (typeof value === "string") hash.update(`s${value.length}:`).update(value);
  else if (Array.isArray(value)) {
    hash.update(`a${value.length}:`);
    for (const item of value) feed(hash, item);
  } else if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    hash.update(`o${entries.length}:`);
    for (const [name, item] of entries) {
      feed(hash, name);
      feed(hash, item);
    }
  } else hash.update(`v${JSON.stringify(value) ?? "undefined"};`);
}
