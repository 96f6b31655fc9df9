import { readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { redocly, redoclyInputs } from "./redocly.ts";
import { inputsHash, provenPass, recordPass } from "./step-cache.ts";
import { bundledSpec, repoRoot, specRoot } from "./paths.ts";

/**
 * Bundles the split spec into dist/openapi.yaml and dist/openapi.json; the message says what happened. With `reuse`,
 * a bundle made from the very same inputs and unchanged since (step-cache.ts) is kept as it is.
 */
export async function buildSpec({
  reuse = false,
}: {
  reuse?: boolean;
} = {}): Promise<{ ok: boolean; message: string; reused?: true }> {
  const inputs = await inputsHash(path.dirname(specRoot), redoclyInputs(new URL(import.meta.url)));
  const files = [bundledSpec.yaml, bundledSpec.json];
  const shown = files.map((p) => path.relative(repoRoot, p)).join(" and ");
  if (reuse && (await provenPass("build-spec", inputs, files)))
    return { ok: true, message: `${shown} are already bundled from these very inputs.`, reused: true };
  // Readers (the sandbox, the suite, other builds) may read the bundle at any moment: write aside, then rename.
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  const yamlTemp = `${bundledSpec.yaml}${suffix}.yaml`;
  const jsonTemp = `${bundledSpec.json}${suffix}`;
  try {
    const { code, output } = await redocly(["bundle", specRoot, "--output", yamlTemp, "--lint-config", "off"]);
    if (code !== 0) {
      return {
        ok: false,
        message: `${output}\nbuild:spec failed: the spec could not be bundled (run \`npm run lint:spec\` for details).`,
      };
    }
    // One Redocly run, two files: the JSON is the same document, parsed from the YAML bundle (the parser loads only to bundle).
    const { parse } = await import("yaml");
    await writeFile(jsonTemp, `${JSON.stringify(parse(await readFile(yamlTemp, "utf8")), null, 2)}\n`);
    await rename(yamlTemp, bundledSpec.yaml);
    await rename(jsonTemp, bundledSpec.json);
  } finally {
    await Promise.all([rm(yamlTemp, { force: true }), rm(jsonTemp, { force: true })]);
  }
  await recordPass("build-spec", inputs, "", files);
  return { ok: true, message: `Bundled ${shown}.` };
}

/**
 * Bundles the spec unless the bundle there was made from the very same inputs and is unchanged since (the proof that
 * `npm run contract` reuses); undefined when it was. For the commands and tests that read the bundle.
 */
export async function ensureBundledSpec(): Promise<{ ok: boolean; message: string } | undefined> {
  const result = await buildSpec({ reuse: true });
  return result.reused ? undefined : result;
}
