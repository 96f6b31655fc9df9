/** `npm run build`: the client package in dist/: ESM JavaScript and .d.ts from src/, the generated types, the bundled spec. */
import { copyFile, mkdir, readdir, rm } from "node:fs/promises";
import { runCommand } from "../lib/process.ts";
import { buildSpec } from "./lib/build-spec.ts";
import { bin, fromRoot, generatedTypes, repoRoot } from "./lib/paths.ts";

// Remove the modules of an older build, so that none ships (the bundled spec and the docs are rebuilt on their own).
const old = (await readdir(fromRoot("dist")).catch(() => [] as string[])).filter((f) => f.endsWith(".js") || f.endsWith(".d.ts") || f === "generated");
await Promise.all(old.map((f) => rm(fromRoot("dist", f), { recursive: true, force: true })));
const spec = await buildSpec();
if (!spec.ok) {
  console.error(spec.message);
  process.exit(1);
}
const compiled = await runCommand(bin("tsc"), ["-p", fromRoot("tsconfig.build.json")], { cwd: repoRoot });
if (compiled.code !== 0) {
  process.stderr.write(compiled.output);
  console.error("build failed: tsc could not compile src/.");
  process.exit(1);
}
// tsc does not copy .d.ts sources: the generated types go next to the code that imports them.
await mkdir(fromRoot("dist", "generated"), { recursive: true });
await copyFile(generatedTypes, fromRoot("dist", "generated", "schema.d.ts"));
console.log("Built dist/: index.js, index.d.ts and their modules, generated/schema.d.ts, openapi.json, openapi.yaml.");
