/**
 * `npm run build:sandbox`: the sandbox package in sandbox/dist/: main.js (its bin, esbuild, the kit's own code
 * bundled in, npm dependencies left as imports), the bundled spec it validates requests with, its README.
 */
import { readCommandLine } from "../lib/command-line.ts";
import { chmod, copyFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { NODE_PACKAGE_BUILD } from "../lib/node-package-build.ts";
import { freshPackageDist } from "./lib/package-dist.ts";
import { bundledSpec, fromRoot } from "./lib/paths.ts";

readCommandLine({
  name: "build:sandbox",
  invocation: "npm run build:sandbox --",
  about: "Builds the sandbox package (file-library-sandbox) in sandbox/dist/: main.js, its bin, and the bundled spec.",
  flags: {},
});
const pkg = fromRoot("sandbox");
const out = await freshPackageDist(pkg);
await build({
  // Split: the SQLite storage, imported only for --data, stays a chunk of its own, so that main.js loads without
  // better-sqlite3, whose binary may not load (another platform, a Node before 22.14) where memory still serves.
  ...NODE_PACKAGE_BUILD,
  entryPoints: [path.join(pkg, "main.ts")],
  outdir: out,
  banner: { js: "#!/usr/bin/env node" },
});
await chmod(path.join(out, "main.js"), 0o755);
// start.ts finds the spec at ../dist/openapi.json from its own module: from dist/main.js, that is dist/openapi.json.
await copyFile(bundledSpec.json, path.join(out, "openapi.json"));
console.log("Built sandbox/dist/: main.js (bin file-library-sandbox), openapi.json.");
