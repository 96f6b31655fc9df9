/** Fails when src/generated/schema.d.ts is not what the spec produces now (drift). */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { generateTypes } from "./lib/generate-types.ts";
import { generatedTypes, repoRoot } from "./lib/paths.ts";
import { firstDifference } from "./lib/first-difference.ts";

const relative = path.relative(repoRoot, generatedTypes);
const expected = await generateTypes();
const committed = await readFile(generatedTypes, "utf8").catch(() => undefined);

if (committed === undefined) {
  console.error(`check:generated failed: ${relative} is missing. Run \`npm run generate\` and commit it.`);
  process.exit(1);
}
if (committed !== expected) {
  const diff = firstDifference(committed, expected);
  console.error(
    `check:generated failed: ${relative} is out of date with openapi/ (first difference at line ${diff.line}).\n` +
      `  committed: ${diff.actual}\n  from spec: ${diff.expected}\n` +
      `Run \`npm run generate\` and commit the result.`,
  );
  process.exit(1);
}
console.log(`${relative} matches the spec.`);
