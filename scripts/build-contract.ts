/**
 * `npm run build:contract`: the contract package in contract-tests/dist/: the CLI and the library entry, with the
 * engine and its checks, as ESM JavaScript (esbuild; the kit's own helpers they use are bundled in, npm dependencies
 * stay imports), the .d.ts of its library entry (tsc), and the bundled spec the checks validate against.
 */
import { readCommandLine } from "../lib/command-line.ts";
import { copyFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { NODE_PACKAGE_BUILD } from "../lib/node-package-build.ts";
import { emitDeclarations, freshPackageDist } from "./lib/package-dist.ts";
import { bundledSpec, fromRoot } from "./lib/paths.ts";

readCommandLine({
  name: "build:contract",
  invocation: "npm run build:contract --",
  about:
    "Builds the contract package (file-library-contract) in contract-tests/dist/: its CLI, the suite, its .d.ts, the bundled spec.",
  flags: {},
});
const pkg = fromRoot("contract-tests");
const out = await freshPackageDist(pkg);

await build({
  absWorkingDir: pkg,
  entryPoints: ["cli.ts", "index.ts"],
  // Split: one copy of each shared module, imported by both entries; the chunks go to the top of dist/, beside the
  // spec that locations.ts finds from there.
  ...NODE_PACKAGE_BUILD,
  outdir: out,
  outbase: pkg,
});

await emitDeclarations(pkg, out);
await copyFile(bundledSpec.json, path.join(out, "openapi.json"));
// The decisions the checks rely on travel with them: the package's README and --help point here.
await copyFile(fromRoot("docs", "decisions.md"), path.join(out, "decisions.md"));
console.log(
  "Built contract-tests/dist/: cli.js (bin file-library-contract), index.js and .d.ts, the suite, openapi.json, decisions.md.",
);
