/**
 * Bundles the split spec into dist/openapi.yaml and dist/openapi.json, one self-contained file each. With
 * `--if-stale`, only when the bundle is missing or older than a file of the spec (for commands that read it).
 */
import { buildSpec, bundleIsFresh } from "./lib/build-spec.ts";

if (!(process.argv.includes("--if-stale") && (await bundleIsFresh()))) {
  const { ok, message } = await buildSpec();
  (ok ? console.log : console.error)(message);
  if (!ok) process.exit(1);
}
