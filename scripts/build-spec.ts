/**
 * Bundles the split spec into dist/openapi.yaml and dist/openapi.json, one self-contained file each. With
 * `--if-stale`, only when no bundle made from the very same inputs is there unchanged (for commands that read it).
 */
import { buildSpec, ensureBundledSpec } from "./lib/build-spec.ts";

const result = process.argv.includes("--if-stale") ? await ensureBundledSpec() : await buildSpec();
if (result) {
  (result.ok ? console.log : console.error)(result.message);
  if (!result.ok) process.exit(1);
}
