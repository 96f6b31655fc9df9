/**
 * Bundles the split spec into dist/openapi.yaml and dist/openapi.json, one self-contained file each. With
 * `--if-stale`, only when no bundle made from the very same inputs is there unchanged (for commands that read it), and
 * quietly unless it fails: it runs before another command (`npm run sandbox -- --help`), whose output is the whole of it.
 */
import { readCommandLine } from "../lib/command-line.ts";
import { buildSpec, ensureBundledSpec } from "./lib/build-spec.ts";

const { values } = readCommandLine({
  name: "build:spec",
  invocation: "npm run build:spec --",
  about:
    "Bundles the split spec (openapi/) into dist/openapi.yaml and dist/openapi.json, one self-contained file each.",
  flags: {
    "if-stale": {
      help: "only when no bundle made from the very same inputs is there unchanged, and silent unless it fails (for the commands that read it)",
    },
  },
});
const result = values["if-stale"] ? await ensureBundledSpec() : await buildSpec();
if (result && !result.ok) {
  console.error(result.message);
  process.exit(1);
}
if (result && !values["if-stale"]) console.log(result.message);
