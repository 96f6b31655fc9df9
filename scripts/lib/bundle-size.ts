import { build } from "esbuild";
import { gzipSync } from "node:zlib";
import { fromRoot } from "./paths.ts";

/** Sizes in bytes of one bundle: minified, and minified then gzipped (level 9). */
export interface BundleSize {
  min: number;
  gzip: number;
}

/** Bundles `source` (TypeScript, resolved from the repo root) as an app's bundler would for a browser, and sizes it. */
export async function bundleSize(source: string): Promise<BundleSize> {
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

/** What the README's client size counts: bare openapi-fetch, and an app that imports the client and one error class. */
export async function clientBundleSizes(): Promise<{ bare: BundleSize; ours: BundleSize }> {
  const [bare, ours] = await Promise.all([
    bundleSize(`export { default as createClient } from "openapi-fetch";`),
    bundleSize(`export { createFileLibraryClient, UnprocessableEntityError } from "./src/index.ts";`),
  ]);
  return { bare, ours };
}
