import { readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { redocly, redoclyInputs } from "./redocly.ts";
import { inputsHash, provenPass, recordPass } from "./step-cache.ts";
import { bundledSpec, fromRoot, repoRoot, specRoot } from "./paths.ts";

/** Whether both bundled files exist and are newer than every file of the split spec and redocly.yaml. */
export async function bundleIsFresh(): Promise<boolean> {
  const mtime = async (file: string) => (await stat(file).catch(() => undefined))?.mtimeMs ?? Number.NaN;
  const sources = (await readdir(path.dirname(specRoot), { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
  const [built, newest] = await Promise.all([
    Promise.all([mtime(bundledSpec.yaml), mtime(bundledSpec.json)]).then((times) => Math.min(...times)),
    Promise.all([...sources, fromRoot("redocly.yaml")].map(mtime)).then((times) => Math.max(...times)),
  ]);
  // NaN (a bundled file missing) compares false: not fresh.
  return built >= newest;
}

/**
 * Bundles the split spec into dist/openapi.yaml and dist/openapi.json; the message says what happened. With `reuse`,
 * a bundle made from the very same inputs and unchanged since (step-cache.ts) is kept as it is.
 */
export async function buildSpec({ reuse = false }: { reuse?: boolean } = {}): Promise<{ ok: boolean; message: string }> {
  const inputs = await inputsHash(path.dirname(specRoot), redoclyInputs(new URL(import.meta.url)));
  const files = [bundledSpec.yaml, bundledSpec.json];
  const shown = files.map((p) => path.relative(repoRoot, p)).join(" and ");
  if (reuse && (await provenPass("build-spec", inputs))) return { ok: true, message: `${shown} are already bundled from these very inputs.` };
  // Readers (the sandbox, the suite, other builds) may read the bundle at any moment: write aside, then rename.
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  const yamlTemp = `${bundledSpec.yaml}${suffix}.yaml`;
  const jsonTemp = `${bundledSpec.json}${suffix}`;
  try {
    const { code, output } = await redocly(["bundle", specRoot, "--output", yamlTemp, "--lint-config", "off"]);
    if (code !== 0) {
      return { ok: false, message: `${output}\nbuild:spec failed: the spec could not be bundled (run \`npm run lint:spec\` for details).` };
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

/** Bundles the spec only when `bundleIsFresh` says the bundle is missing or older; undefined when it was fresh. */
export async function ensureBundledSpec(): Promise<{ ok: boolean; message: string } | undefined> {
  return (await bundleIsFresh()) ? undefined : buildSpec();
}
