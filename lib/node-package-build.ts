import type { BuildOptions } from "esbuild";

/**
 * How the kit's Node packages are bundled (esbuild): ESM, the kit's own modules bundled in, npm dependencies left as
 * imports (the package's dependencies), and shared code split into chunks (`[name]-[hash]`, at the top of the output).
 * The published contract suite and the sandbox are built so.
 */
export const NODE_PACKAGE_BUILD = {
  bundle: true,
  splitting: true,
  chunkNames: "[name]-[hash]",
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  logLevel: "warning",
} as const satisfies BuildOptions;
