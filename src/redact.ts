/** What a secret is replaced with wherever the client shows data. */
export const REDACTED = "[REDACTED]";

/** Replaces every occurrence of each secret inside a string. */
export function redactString(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** Deep copy of a JSON-like value with every secret replaced, in strings and in object keys. */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return redactString(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redactString(key, secrets), redactValue(item, secrets)]),
    );
  }
  return value;
}

/** Copy of response headers with every secret replaced in their values. */
export function redactHeaders(headers: Headers, secrets: readonly string[]): Headers {
  const copy = new Headers();
  headers.forEach((value, name) => copy.append(name, redactString(value, secrets)));
  return copy;
}
