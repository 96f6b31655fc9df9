/**
 * `npm run build:sandbox`: the sandbox package in sandbox/dist/: main.js (its bin) and testing.js (the library entry
 * `file-library-sandbox/testing`, with the faults and variants the bin does not ship), by esbuild with the kit's own
 * code bundled in and npm dependencies left as imports; the testing entry's .d.ts (tsc); the bundled spec it
 * validates requests with.
 */
import { readCommandLine } from "../lib/command-line.ts";
import { chmod, copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { NODE_PACKAGE_BUILD } from "../lib/node-package-build.ts";
import { emitDeclarations, freshPackageDist } from "./lib/package-dist.ts";
import { bundledSpec, fromRoot } from "./lib/paths.ts";

readCommandLine({
  name: "build:sandbox",
  invocation: "npm run build:sandbox --",
  about:
    "Builds the sandbox package (file-library-sandbox) in sandbox/dist/: main.js (its bin), testing.js and its .d.ts, the bundled spec.",
  flags: {},
});
const pkg = fromRoot("sandbox");
const out = await freshPackageDist(pkg);
await build({
  // Split: the SQLite storage, imported only for --data, stays a chunk of its own, so that main.js loads without
  // better-sqlite3, whose binary may not load (another platform, a Node before 22.14) where memory still serves.
  // The code both entries use is a chunk too: the faults stay in testing.js, which main.js never imports.
  ...NODE_PACKAGE_BUILD,
  entryPoints: { main: path.join(pkg, "main.ts"), testing: path.join(pkg, "testing", "index.ts") },
  outdir: out,
  banner: { js: "#!/usr/bin/env node" },
});
await chmod(path.join(out, "main.js"), 0o755);
await emitDeclarations(pkg, out);
// The core's declarations import the spec's generated types, a declaration file of the sources that tsc does not emit.
await mkdir(path.join(out, "types", "src", "generated"), { recursive: true });
await copyFile(fromRoot("src", "generated", "schema.d.ts"), path.join(out, "types", "src", "generated", "schema.d.ts"));
// start.ts finds the spec at ../dist/openapi.json from its own module: from dist/ (its entries and chunks), that is dist/openapi.json.
await copyFile(bundledSpec.json, path.join(out, "openapi.json"));
console.log(
  "Built sandbox/dist/: main.js (bin file-library-sandbox), testing.js and .d.ts (file-library-sandbox/testing), openapi.json.",
);
