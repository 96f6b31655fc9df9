/** Lints the spec with the rules of redocly.yaml; any error or warning fails. */
import { redocly } from "./lib/redocly.ts";

const { code, output } = await redocly(["lint", "--lint-config", "error", "--max-problems", "200"]);
process.stdout.write(output);
// `redocly lint` exits 0 on warnings; we promise "non-zero on any warning".
const warnings = /You have (\d+) warnings?/.exec(output);
if (code !== 0 || warnings) {
  console.error(`\nlint:spec failed: fix the problems above in openapi/ (rules: redocly.yaml).`);
  process.exit(1);
}
