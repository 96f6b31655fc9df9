import { isSecretName, MAX_DEPTH, REDACTED } from "../../src/redact.ts";

/**
 * A body as every report and recording shows it: a JSON text with the value of each secret-named member (`token`,
 * `password`, `apiKey`, ...: src/redact.ts) blanked, and a form body (`contentType` application/x-www-form-urlencoded)
 * with each secret-named parameter's blanked; any other text, and one with no such name, comes back as it was (its own
 * bytes kept). The one blanking of bodies: the recorder's lines and the curl commands of reports both use it.
 */
export function blankSecretMembers(text: string, contentType?: string): string {
  if (/^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType ?? "")) return blankSecretParameters(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (!hasSecretName(value, 0)) return text;
  try {
    return JSON.stringify(value, (key, item: unknown) =>
      key && isSecretName(key) && (item === null || typeof item !== "object") ? REDACTED : item,
    );
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

/** A parameter's name as the form or query means it (`+` a space, escapes decoded); a malformed escape is left as it is. */
function parameterName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
}

/**
 * A `name=value&…` text (a form body, a query) with the value of each secret-named parameter (`token=`, `api_key=`)
 * blanked, as a JSON body's members are; every other byte is kept as it came.
 */
export function blankSecretParameters(text: string): string {
  return text
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      return equals >= 0 && isSecretName(parameterName(pair.slice(0, equals)))
        ? `${pair.slice(0, equals)}=${REDACTED}`
        : pair;
    })
    .join("&");
}

/** A request target or URL with the secret-named parameters of its query blanked (blankSecretParameters). */
export function blankSecretQuery(target: string): string {
  const mark = target.indexOf("?");
  return mark < 0 ? target : `${target.slice(0, mark + 1)}${blankSecretParameters(target.slice(mark + 1))}`;
}
