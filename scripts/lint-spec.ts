/** Lints the spec with the rules of redocly.yaml; any error or warning fails. */
import { lintSpec } from "./lib/redocly.ts";

const { ok, output } = await lintSpec();
process.stdout.write(output);
if (!ok) process.exit(1);
