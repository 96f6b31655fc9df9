import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { fromRoot } from "../scripts/lib/paths.ts";
import { fmt, type Section } from "./lib/report.ts";

/** Minified and gzipped size of what an app bundles for one import. */
async function bundleSize(source: string): Promise<{ min: number; gzip: number }> {
  const result = await build({
    stdin: { contents: source, resolveDir: fromRoot(), loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

/** Our client next to bare openapi-fetch, as an app's bundler sees them. */
export async function clientSize(): Promise<Section> {
  const bare = await bundleSize(`export { default as createClient } from "openapi-fetch";`);
  const ours = await bundleSize(`export { createFileLibraryClient } from "./src/index.ts";`);
  const kb = (bytes: number) => fmt(bytes / 1024, 2);
  return {
    title: "Client size: minified, then gzipped (esbuild, ESM, browser)",
    columns: ["bundle", "min kB", "gzip kB"],
    rows: [
      ["bare openapi-fetch", kb(bare.min), kb(bare.gzip)],
      ["our client (includes openapi-fetch)", kb(ours.min), kb(ours.gzip)],
      ["difference", kb(ours.min - bare.min), kb(ours.gzip - bare.gzip)],
    ],
    ratios: [{ name: "gzip kB over openapi-fetch", value: (ours.gzip - bare.gzip) / 1024, target: "<= 2.00" }],
  };
}
