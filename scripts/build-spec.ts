/** Bundles the split spec into dist/openapi.yaml and dist/openapi.json, one self-contained file each. */
import { buildSpec } from "./lib/build-spec.ts";

const { ok, message } = await buildSpec();
(ok ? console.log : console.error)(message);
if (!ok) process.exit(1);
