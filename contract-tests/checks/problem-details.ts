import { fullFormats } from "ajv-formats/dist/formats.js";

/** The media type of an RFC 9457 problem document. */
export const PROBLEM_JSON = "application/problem+json";

// The spec's validator reads `format: uri-reference` with this very expression (ajv-formats' full formats).
const URI_REFERENCE = fullFormats["uri-reference"] as RegExp;

// Values come from JSON.parse: each has a JSON text.
const shown = (value: unknown) => JSON.stringify(value).slice(0, 80);
const isString = (value: unknown): value is string => typeof value === "string";
const isUriReference = (value: unknown) => isString(value) && URI_REFERENCE.test(value);

/**
 * What breaks the members RFC 9457 defines (§3.1), in a problem document answered with HTTP `status`: each member is
 * judged when present; other members are extensions, and a body that is no object is ErrorBody's to fail.
 */
export function problemDetailsProblems(body: unknown, status: number): string[] {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return [];
  const members = body as Record<string, unknown>;
  const problems: string[] = [];
  const judge = (name: string, ok: (value: unknown) => boolean, expected: string, section: string) => {
    if (name in members && !ok(members[name]))
      problems.push(`"${name}" is ${shown(members[name])}, not ${expected} (§${section})`);
  };
  judge("type", isUriReference, "a URI reference", "3.1.1");
  judge("status", (value) => value === status, `the answer's status as a number (${status})`, "3.1.2");
  judge("title", isString, "a string", "3.1.3");
  judge("detail", isString, "a string", "3.1.4");
  judge("instance", isUriReference, "a URI reference", "3.1.5");
  return problems;
}
