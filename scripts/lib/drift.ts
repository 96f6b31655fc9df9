import { readFile } from "node:fs/promises";
import { generateTypes, isGeneratedFromCurrentInputs, splitGenerated } from "./generate-types.ts";
import { firstDifference } from "./first-difference.ts";

/**
 * Compares the committed types with what the spec produces now; a message says what to run when they differ. When the
 * file records the hash of the very inputs it was generated from, and of its untouched body, that is proof enough
 * (generation is deterministic), and nothing is generated.
 */
export async function checkDrift(
  committedFile: string,
  shownAs: string,
  spec?: string,
): Promise<{ ok: boolean; message: string }> {
  const committed = await readFile(committedFile, "utf8").catch(() => undefined);
  if (committed === undefined) {
    return {
      ok: false,
      message: `check:generated failed: ${shownAs} is missing. Run \`npm run generate\` and commit it.`,
    };
  }
  if (await isGeneratedFromCurrentInputs(committed, spec)) {
    return {
      ok: true,
      message: `${shownAs} matches the spec (generated from these very inputs: its recorded hashes match).`,
    };
  }
  const expected = await generateTypes(spec);
  if (committed !== expected) {
    // The types first: what a reader needs is the first line of code that differs, not the hash of the inputs.
    const [ours, theirs] = [splitGenerated(committed), splitGenerated(expected)];
    if (ours.body === theirs.body) {
      return {
        ok: false,
        message: `check:generated failed: ${shownAs} has the right types but records older inputs (the spec changed in a way that does not change them). Run \`npm run generate\` and commit the result.`,
      };
    }
    const diff = firstDifference(ours.body, theirs.body);
    diff.line += ours.header.split("\n").length - 1;
    return {
      ok: false,
      message:
        `check:generated failed: ${shownAs} is out of date with openapi/ (first difference at line ${diff.line}).\n` +
        `  committed: ${diff.actual.trim()}\n  from spec: ${diff.expected.trim()}\n` +
        "Run `npm run generate` and commit the result.",
    };
  }
  return { ok: true, message: `${shownAs} matches the spec.` };
}
