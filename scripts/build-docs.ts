/** Renders the bundled spec to a self-contained HTML reference, dist/docs/index.html (no resource from outside). */
import { readCommandLine } from "../lib/command-line.ts";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildSpec } from "./lib/build-spec.ts";
import { bundledSpec, fromRoot, repoRoot } from "./lib/paths.ts";
import { redocly } from "./lib/redocly.ts";

readCommandLine({
  name: "build:docs",
  invocation: "npm run build:docs --",
  about:
    "Renders the bundled spec to the reference site, dist/docs/index.html: one self-contained page that loads nothing from outside.",
  flags: {},
});
const docs = fromRoot("dist", "docs", "index.html");
const spec = await buildSpec();
if (!spec.ok) {
  console.error(spec.message);
  process.exit(1);
}
// --inlineBundle embeds Redoc: without it the page loads its script from a CDN.
const { code, output } = await redocly([
  "build-docs",
  bundledSpec.yaml,
  "--output",
  docs,
  "--title",
  "File Library API",
  "--inlineBundle",
]);
if (code !== 0) {
  process.stderr.write(output);
  console.error("build:docs failed: Redocly could not render the reference.");
  process.exit(1);
}
// Redoc 3 shows Redocly's attribution logo from its CDN, with no option to turn it off. The attribution
// stays (text and link); its image becomes an inline SVG, so that the page loads nothing from outside.
const LOGO = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="60" height="14"><text x="0" y="11" font-family="sans-serif" font-size="11" fill="#0044d4">Redocly</text></svg>')}`;
const html = await readFile(docs, "utf8");
const offline = html.replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g, LOGO);
// (Icon-set URLs of cdn.redocly.com stay in the bundle unused; test/spec/docs-site.test.ts fails on any request that leaves the machine.)
if (offline.includes("https://cdn.redoc.ly/")) {
  console.error(
    "build:docs failed: the page still loads Redocly's logo from its CDN; update the rewrite in scripts/build-docs.ts.",
  );
  process.exit(1);
}
await writeFile(docs, offline);
console.log(`Wrote ${path.relative(repoRoot, docs)}.`);
