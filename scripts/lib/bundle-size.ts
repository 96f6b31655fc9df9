import { build, type Plugin } from "esbuild";
import { gzipSync } from "node:zlib";
import { fromRoot } from "./paths.ts";

/** Sizes in bytes of one bundle: minified, and minified then gzipped (level 9). */
export interface BundleSize {
  min: number;
  gzip: number;
}

/** Bundles `source` (TypeScript, resolved from the repo root) as an app's bundler would for a browser, minified. */
export async function bundle(
  source: string,
  { plugins = [], external = [] }: { plugins?: Plugin[]; external?: string[] } = {},
): Promise<Uint8Array> {
  const result = await build({
    plugins,
    external,
    stdin: { contents: source, resolveDir: fromRoot(), loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.contents;
}

/** The size of `source` bundled as an app's bundler would for a browser (`plugins` as for bundle). */
export async function bundleSize(source: string, plugins: Plugin[] = []): Promise<BundleSize> {
  const code = await bundle(source, { plugins });
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

/** The app the client size of docs/benchmarks.md counts: it imports the client and one error class. */
export const CLIENT_APP = `export { createFileLibraryClient, UnprocessableEntityError } from "./src/index.ts";`;

/** What the client size of docs/benchmarks.md counts: bare openapi-fetch, and the app of `CLIENT_APP`. */
export async function clientBundleSizes(): Promise<{ bare: BundleSize; ours: BundleSize }> {
  const [bare, ours] = await Promise.all([
    bundleSize(`export { default as createClient } from "openapi-fetch";`),
    bundleSize(CLIENT_APP),
  ]);
  return { bare, ours };
}
