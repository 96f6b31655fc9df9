import { readFile } from "node:fs/promises";
import { generateTypes } from "./generate-types.ts";
import { firstDifference } from "./first-difference.ts";

/** Compares the committed types with what the spec produces now; a message says what to run when they differ. */
export async function checkDrift(committedFile: string, shownAs: string, spec?: string): Promise<{ ok: boolean; message: string }> {
  const expected = await generateTypes(spec);
  const committed = await readFile(committedFile, "utf8").catch(() => undefined);
  if (committed === undefined) {
    return { ok: false, message: `check:generated failed: ${shownAs} is missing. Run \`npm run generate\` and commit it.` };
  }
  if (committed !== expected) {
    const diff = firstDifference(committed, expected);
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
