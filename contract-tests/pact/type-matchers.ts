/**
 * The matching rules that hold a pact's response to what the app relied on, the way a replay does
 * (recording/consumer-contract.ts): every JSON member the app got, at any depth, with its JSON type; values may
 * differ; an array's first item stands for its items.
 */

/** One Pact matcher (specification 3 and 4 write them alike). */
export type PactMatcher = { match: "type"; min?: number } | { match: "regex"; regex: string };

/** A path of the body (Pact's `$.a.b[*]`) and the matchers that hold it. */
export type MatchingRules = Record<string, { combine: "AND"; matchers: PactMatcher[] }>;

/** An absolute http(s) URL, whitespace around it allowed (the spec's download answer: docs/decisions.md, D26). */
export const DOWNLOAD_URL_REGEX = "^\\s*https?://\\S+\\s*$";

/** A member's name as a step of a Pact path: `.name`, or `['odd name']` for names that are no identifier. */
const step = (name: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `.${name}` : `['${name.replace(/'/g, "\\'")}']`;

/**
 * Type matchers for every member of `value`, from `at` down: an object's members each by type (so a missing member or
 * one of another type breaks the pact, an extra one does not), an array by type with its items like its first (`min:
 * 0`: the deployment may send fewer or more). Depth is bounded by the JSON the recording kept (its body cap).
 */
export function typeMatchingRules(value: unknown, at = "$", rules: MatchingRules = {}): MatchingRules {
  if (Array.isArray(value)) {
    rules[at] = { combine: "AND", matchers: [{ match: "type", min: 0 }] };
    if (value.length > 0) typeMatchingRules(value[0], `${at}[*]`, rules);
    return rules;
  }
  rules[at] = { combine: "AND", matchers: [{ match: "type" }] };
  if (value !== null && typeof value === "object") {
    for (const [name, member] of Object.entries(value)) typeMatchingRules(member, `${at}${step(name)}`, rules);
  }
  return rules;
}
