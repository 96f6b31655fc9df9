/** What a secret is replaced with wherever the client shows data. */
export const REDACTED = "[REDACTED]";

// Header and field names whose values are credentials, whatever the value is.
const SECRET_NAME = /authorization|cookie|api[-_]?key|secret|token|password|credential/i;

/** Whether a header or field name holds a credential. */
export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);

/**
 * Whether a secret could not be an ordinary word: eight characters or more, and something other than letters. Only such
 * a secret is looked for inside other text; any other one ("test", "k1", "application") only as a word of its own.
 */
export const isDistinctive = (secret: string): boolean => secret.length >= 8 && /[^A-Za-z]/.test(secret);

/**
 * Replaces each secret inside a string wherever it could really be the key: a distinctive one everywhere, any other
 * one only where it stands as a word of its own (never inside "Check", "text/plain" or "file_1"; `\w` is what a word is made of).
 */
export function redactString(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (!secret) continue;
    // A text that does not hold the secret is left alone: nothing is built to redact it (the proxy redacts every answer).
    // Stryker disable next-line ConditionalExpression: equivalent; a text without the secret comes out unchanged either way.
    if (!result.includes(secret)) continue;
    const word = isDistinctive(secret) ? "" : "(?<!\\w)";
    const pattern = new RegExp(`${word}${secret.replace(/[$()*+.?[\\\]^{|}]/g, "\\$&")}${word && "(?!\\w)"}`, "g");
    result = result.replace(pattern, REDACTED);
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
  if (depth >= MAX_DEPTH) return `[left out: deeper than ${MAX_DEPTH} levels]`;
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
