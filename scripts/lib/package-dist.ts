import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { runCommand } from "../../lib/process.ts";
import { buildSpec } from "./build-spec.ts";
import { bin, repoRoot } from "./paths.ts";

/**
 * The start of a workspace package's build: bundles the spec it ships (exiting with its message when that fails)
 * and empties the package's dist/ folder. Resolves with that folder.
 */
export async function freshPackageDist(pkg: string): Promise<string> {
  const spec = await buildSpec();
  if (!spec.ok) {
    console.error(spec.message);
    process.exit(1);
  }
  const out = path.join(pkg, "dist");
  await rm(out, { recursive: true, force: true });
  return out;
}

/**
 * The .d.ts of a package's library entry, by tsc with the package's tsconfig.build.json, into its dist/ (exiting with
 * tsc's message when that fails); their relative specifiers name the published ".js" files, not the sources' ".ts".
 */
export async function emitDeclarations(pkg: string, out: string): Promise<void> {
  const declarations = await runCommand(bin("tsc"), ["-p", path.join(pkg, "tsconfig.build.json")], { cwd: repoRoot });
  if (declarations.code !== 0) {
    process.stderr.write(declarations.output);
    console.error(`build failed: tsc could not emit the declarations of ${path.relative(repoRoot, pkg)}.`);
    process.exit(1);
  }
  for (const file of (await readdir(out, { recursive: true })).filter((f) => f.endsWith(".d.ts"))) {
    const full = path.join(out, file);
    await writeFile(full, (await readFile(full, "utf8")).replace(/(from\s+["']\.{1,2}\/[^"']+)\.ts(["'])/g, "$1.js$2"));
  }
}
