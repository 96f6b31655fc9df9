import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { redocly } from "./redocly.ts";
import { bundledSpec, repoRoot, specRoot } from "./paths.ts";

/** Bundles the split spec into dist/openapi.yaml and dist/openapi.json; the message says what happened. */
export async function buildSpec(): Promise<{ ok: boolean; message: string }> {
  const { code, output } = await redocly(["bundle", specRoot, "--output", bundledSpec.yaml, "--lint-config", "off"]);
  if (code !== 0) {
    return { ok: false, message: `${output}\nbuild:spec failed: the spec could not be bundled (run \`npm run lint:spec\` for details).` };
  }
  // One Redocly run, two files: the JSON is the same document, parsed from the YAML bundle.
  await writeFile(bundledSpec.json, `${JSON.stringify(parse(await readFile(bundledSpec.yaml, "utf8")), null, 2)}\n`);
  return { ok: true, message: `Bundled ${[bundledSpec.yaml, bundledSpec.json].map((p) => path.relative(repoRoot, p)).join(" and ")}.` };
}
