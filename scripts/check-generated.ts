/** Fails when src/generated/schema.d.ts is not what the spec produces now (drift). */
import { readCommandLine } from "../lib/command-line.ts";
import path from "node:path";
import { checkDrift } from "./lib/drift.ts";
import { generatedTypes, repoRoot } from "./lib/paths.ts";

readCommandLine({
  name: "check:generated",
  invocation: "npm run check:generated --",
  about:
    "Fails (exit 1) when src/generated/schema.d.ts is not what the spec produces now; npm run generate rewrites it.",
  flags: {},
});
const { ok, message } = await checkDrift(generatedTypes, path.relative(repoRoot, generatedTypes));
(ok ? console.log : console.error)(message);
if (!ok) process.exit(1);
