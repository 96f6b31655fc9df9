/** Writes src/generated/schema.d.ts from the spec. */
import { readCommandLine } from "../lib/command-line.ts";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { generateTypes } from "./lib/generate-types.ts";
import { generatedTypes, repoRoot } from "./lib/paths.ts";

readCommandLine({
  name: "generate",
  invocation: "npm run generate --",
  about:
    "Writes src/generated/schema.d.ts from the spec with openapi-typescript (commit it; check:generated compares).",
  flags: {},
});
await mkdir(path.dirname(generatedTypes), { recursive: true });
await writeFile(generatedTypes, await generateTypes());
console.log(`Wrote ${path.relative(repoRoot, generatedTypes)}.`);
