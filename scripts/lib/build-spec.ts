import { readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { redocly } from "./redocly.ts";
import { bundledSpec, repoRoot, specRoot } from "./paths.ts";

/** Bundles the split spec into dist/openapi.yaml and dist/openapi.json; the message says what happened. */
export async function buildSpec(): Promise<{ ok: boolean; message: string }> {
  // Readers (the sandbox, the suite, other builds) may read the bundle at any moment: write aside, then rename.
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  const yamlTemp = `${bundledSpec.yaml}${suffix}.yaml`;
  const jsonTemp = `${bundledSpec.json}${suffix}`;
  try {
    const { code, output } = await redocly(["bundle", specRoot, "--output", yamlTemp, "--lint-config", "off"]);
    if (code !== 0) {
      return { ok: false, message: `${output}\nbuild:spec failed: the spec could not be bundled (run \`npm run lint:spec\` for details).` };
    }
    // One Redocly run, two files: the JSON is the same document, parsed from the YAML bundle.
    await writeFile(jsonTemp, `${JSON.stringify(parse(await readFile(yamlTemp, "utf8")), null, 2)}\n`);
    await rename(yamlTemp, bundledSpec.yaml);
    await rename(jsonTemp, bundledSpec.json);
  } finally {
    await Promise.all([rm(yamlTemp, { force: true }), rm(jsonTemp, { force: true })]);
  }
  return { ok: true, message: `Bundled ${[bundledSpec.yaml, bundledSpec.json].map((p) => path.relative(repoRoot, p)).join(" and ")}.` };
}
