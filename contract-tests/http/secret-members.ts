import { isSecretName, MAX_DEPTH, REDACTED } from "../../src/redact.ts";

/**
 * A JSON text with the value of each secret-named member (`token`, `password`, `apiKey`, ...: src/redact.ts) blanked,
 * as every report and recording shows a body; any other text, and JSON with no such member, comes back as it was (its
 * own bytes kept). The one blanking of bodies: the recorder's lines and the curl commands of reports both use it.
 */
export function blankSecretMembers(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (!hasSecretName(value, 0)) return text;
  try {
    return JSON.stringify(value, (key, item: unknown) => (key && isSecretName(key) && (item === null || typeof item !== "object") ? REDACTED : item));
  } catch {
    // Too deep to write again (a hostile body): none of it is shown rather than a secret in it.
    return `[JSON nested too deep to blank its secret-named members: left out]`;
  }
}

/** Whether a member anywhere in the value has a secret name; deeper than MAX_DEPTH counts as one (its text is blanked whole). */
function hasSecretName(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== "object") return false;
  if (depth >= MAX_DEPTH) return true;
  return Object.entries(value).some(([key, item]) => isSecretName(key) || hasSecretName(item, depth + 1));
}
