/**
 * The first member name that an object of the JSON text names twice, or undefined. RFC 8259 §4: names SHOULD be
 * unique, because receivers then disagree (JSON.parse keeps the last value, others the first, strict ones fail).
 * For text that JSON.parse accepted: every ":" then follows a name, in an object.
 */
export function repeatedMemberName(text: string): string | undefined {
  const token = /"(?:[^"\\]|\\.)*"|[{}[\]:]/g;
  // One entry per open object (its names so far) or array (undefined).
  // Stryker disable next-line ArrayDeclaration: equivalent; in text JSON.parse accepted, a ":" never reads below the object it is in.
  const open: Array<Set<string> | undefined> = [];
  // Stryker disable next-line StringLiteral: equivalent; in text JSON.parse accepted, a name always comes before its ":".
  let last = "";
  for (let match = token.exec(text); match; match = token.exec(text)) {
    const [found] = match;
    if (found === "{") open.push(new Set());
    else if (found === "[") open.push(undefined);
    else if (found === "}" || found === "]") open.pop();
    else if (found === ":") {
      const names = open.at(-1)!;
      // `\u0073ize` is `size`: names are compared as JSON reads them. JSON.parse only where an escape needs it.
      // Stryker disable next-line StringLiteral: equivalent; JSON.parse reads a name without escapes as the slice does.
      const name = last.includes("\\") ? (JSON.parse(last) as string) : last.slice(1, -1);
      if (names.has(name)) return name;
      names.add(name);
    } else last = found;
  }
  return undefined;
}
