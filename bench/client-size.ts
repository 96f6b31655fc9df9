import { readdir } from "node:fs/promises";
import { bundleSize, CLIENT_APP, clientBundleSizes } from "../scripts/lib/bundle-size.ts";
import { fromRoot } from "../scripts/lib/paths.ts";
import { emptyProse, stubModule } from "./lib/bundle-probes.ts";
import { fmt, type Section } from "./lib/report.ts";

// The entry and the module that calls everything: without either, nothing of the client is left to measure.
const NOT_PROBED = new Set(["index.ts", "client.ts"]);

/** Our client next to bare openapi-fetch, as an app's bundler sees them, and what each part of it costs. */
export async function clientSize(): Promise<Section> {
  const { bare, ours } = await clientBundleSizes();
  const kb = (bytes: number) => fmt(bytes / 1024, 2);
  // What each part costs: the app's bundle with that part taken out, against the whole (one build each).
  const modules = (await readdir(fromRoot("src"))).filter((f) => f.endsWith(".ts") && !NOT_PROBED.has(f)).sort();
  const probes = await Promise.all([
    bundleSize(CLIENT_APP, [emptyProse(fromRoot("src/"))]).then(
      (size) => ["the text of its messages (strings of 20+ characters)", size] as const,
    ),
    ...modules.map((file) =>
      bundleSize(CLIENT_APP, [stubModule(fromRoot("src", file))]).then(
        (size) => [`src/${file}, with what only it uses`, size] as const,
      ),
    ),
  ]);
  const costs = probes
    .map(([what, size]) => ({ what, min: ours.min - size.min, gzip: ours.gzip - size.gzip }))
    .sort((a, b) => b.gzip - a.gzip);
  return {
    title: "Client size: minified, then gzipped (esbuild, ESM, browser)",
    columns: ["bundle", "min kB", "gzip kB"],
    rows: [
      ["bare openapi-fetch", kb(bare.min), kb(bare.gzip)],
      ["our client and one error class (includes openapi-fetch)", kb(ours.min), kb(ours.gzip)],
      ["difference", kb(ours.min - bare.min), kb(ours.gzip - bare.gzip)],
      ...costs.map(({ what, min, gzip }) => [`  of which ${what}`, kb(min), kb(gzip)]),
    ],
    // One build, no rounds: sizes do not vary between runs.
    ratios: [{ name: "gzip kB over openapi-fetch", rounds: [(ours.gzip - bare.gzip) / 1024], target: "<= 2.50" }],
    notes: [
      'The "of which" rows are each what the bundle loses when that part alone is taken out (a module replaced by empty stand-ins, or the messages\' text emptied); they overlap, so they do not add up to the difference.',
    ],
  };
}
