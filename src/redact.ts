/** What a secret is replaced with wherever the client shows data. */
export const REDACTED = "[REDACTED]";

// Header and field names whose values are credentials, whatever the value is.
const SECRET_NAME = /authorization|cookie|api[-_]?key|secret|token|password|credential/i;

/** Whether a header or field name holds a credential. */
export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);

/** Replaces every occurrence of each secret inside a string. */
export function redactString(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (!secret) continue;
    // A text that does not hold the secret is left alone: no array is built to split it (the proxy redacts every answer).
    // Stryker disable next-line ConditionalExpression: equivalent; splitting on a secret the text does not hold changes nothing.
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** How deep `redactValue` copies; deeper parts of a (hostile) answer are left out, so no copy can overflow the stack. */
export const MAX_DEPTH = 64;

/**
 * Deep copy of a JSON-like value with every secret replaced, and every secret-named field blanked; what is nested
 * deeper than MAX_DEPTH levels is replaced by a note.
 */
export function redactValue(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === "string") return redactString(value, secrets);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return `[nested deeper than ${MAX_DEPTH} levels: left out]`;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      redactString(key, secrets),
      // A secret-named field's value is blanked; null (typeof "object") and objects are walked into instead.
      isSecretName(key) && typeof item !== "object" ? REDACTED : redactValue(item, secrets, depth + 1),
    ]),
  );
}

/** Copy of headers with secret-named headers blanked and every secret replaced in the others. */
export function redactHeaders(headers: Headers, secrets: readonly string[]): Headers {
  const copy = new Headers();
  headers.forEach((value, name) => copy.append(name, isSecretName(name) ? REDACTED : redactString(value, secrets)));
  return copy;
}
