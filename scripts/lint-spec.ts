/** Lints the spec with the rules of redocly.yaml; any error or warning fails. */
import { lintSpec } from "./lib/redocly.ts";

const { ok, output } = await lintSpec();
process.stdout.write(output);
if (!ok) {
  console.error("\nlint:spec failed: fix the problems above in openapi/ (rules: redocly.yaml).");
  process.exit(1);
}
