import { rm } from "node:fs/promises";
import path from "node:path";
import { buildSpec } from "./build-spec.ts";

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
