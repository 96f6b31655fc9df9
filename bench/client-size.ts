import { clientBundleSizes } from "../scripts/lib/bundle-size.ts";
import { fmt, type Section } from "./lib/report.ts";

/** Our client next to bare openapi-fetch, as an app's bundler sees them. */
export async function clientSize(): Promise<Section> {
  const { bare, ours } = await clientBundleSizes();
  const kb = (bytes: number) => fmt(bytes / 1024, 2);
  return {
    title: "Client size: minified, then gzipped (esbuild, ESM, browser)",
    columns: ["bundle", "min kB", "gzip kB"],
    rows: [
      ["bare openapi-fetch", kb(bare.min), kb(bare.gzip)],
      ["our client and one error class (includes openapi-fetch)", kb(ours.min), kb(ours.gzip)],
      ["difference", kb(ours.min - bare.min), kb(ours.gzip - bare.gzip)],
    ],
    // One build, no rounds: sizes do not vary between runs.
    ratios: [{ name: "gzip kB over openapi-fetch", rounds: [(ours.gzip - bare.gzip) / 1024], target: "<= 2.50" }],
  };
}
