/** Lints the spec with the rules of redocly.yaml; any error or warning fails. */
import { readCommandLine } from "../lib/command-line.ts";
import { lintSpec } from "./lib/redocly.ts";

readCommandLine({
  name: "lint:spec",
  invocation: "npm run lint:spec --",
  about:
    "Lints the spec (openapi/) with Redocly and the rules of redocly.yaml; any error or warning fails (exit 1). Always runs anew.",
  flags: {},
});
const { ok, output } = await lintSpec();
process.stdout.write(output);
if (!ok) process.exit(1);
