/** Bundles the split spec into dist/openapi.yaml and dist/openapi.json, one self-contained file each. */
import path from "node:path";
import { redocly } from "./lib/redocly.ts";
import { bundledSpec, repoRoot, specRoot } from "./lib/paths.ts";

const results = await Promise.all(
  [bundledSpec.yaml, bundledSpec.json].map((output) =>
    redocly(["bundle", specRoot, "--output", output, "--lint-config", "off"]),
  ),
);
for (const { code, output } of results) {
  if (code !== 0) {
    process.stderr.write(output);
    console.error("build:spec failed: the spec could not be bundled (run `npm run lint:spec` for details).");
    process.exit(1);
  }
}
console.log(`Bundled ${[bundledSpec.yaml, bundledSpec.json].map((p) => path.relative(repoRoot, p)).join(" and ")}.`);
