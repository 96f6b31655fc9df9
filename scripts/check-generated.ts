/** Fails when src/generated/schema.d.ts is not what the spec produces now (drift). */
import path from "node:path";
import { checkDrift } from "./lib/drift.ts";
import { generatedTypes, repoRoot } from "./lib/paths.ts";

const { ok, message } = await checkDrift(generatedTypes, path.relative(repoRoot, generatedTypes));
(ok ? console.log : console.error)(message);
if (!ok) process.exit(1);
