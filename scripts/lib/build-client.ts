import { copyFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { runCommand } from "../../lib/process.ts";
import { bin, fromRoot, generatedTypes, repoRoot } from "./paths.ts";

/** The files of a build: what an older build left is removed first (a bundled spec or docs beside them stay). */
const isBuildOutput = (file: string) => /\.(c|m)?js$|\.d\.c?ts$/.test(file) || file === "generated";

/**
 * Compiles the client (src/) into `outDir`, in the three forms the package's exports map names:
 * - ESM for browsers and bundlers: one module per source file (tree-shakeable), with .d.ts;
 * - CommonJS (`index.cjs`, one bundle with openapi-fetch left external), with .d.cts;
 * - for Node's `import`, `index.node.mjs`, an ES module over the CommonJS build, so that an app that both imports
 *   and requires the package gets one copy of it, and `instanceof` holds across the two.
 */
export async function buildClient(outDir: string): Promise<{ ok: boolean; message: string }> {
  const old = (await readdir(outDir).catch(() => [] as string[])).filter(isBuildOutput);
  await Promise.all(old.map((f) => rm(path.join(outDir, f), { recursive: true, force: true })));
  const [compiled] = await Promise.all([
    runCommand(bin("tsc"), ["-p", fromRoot("tsconfig.build.json"), "--outDir", outDir], { cwd: repoRoot }),
    buildCommonJs(path.join(outDir, "index.cjs")),
  ]);
  if (compiled.code !== 0) return { ok: false, message: `${compiled.output}\nbuild failed: tsc could not compile src/.` };
  // tsc does not copy .d.ts sources: the generated types go next to the code that imports them.
  await mkdir(path.join(outDir, "generated"), { recursive: true });
  await copyFile(generatedTypes, path.join(outDir, "generated", "schema.d.ts"));
  await writeCommonJsDeclarations(outDir);
  await writeNodeWrapper(outDir);
  return {
    ok: true,
    message: `Built ${path.relative(repoRoot, outDir) || outDir}: index.js and its modules (ESM), index.cjs (CommonJS), index.node.mjs (Node's import), their .d.ts and .d.cts.`,
  };
}

// openapi-fetch's CommonJS build exports its function as `exports.default` (with __esModule). esbuild, bundling a
// module of a "type": "module" package, takes the default import as the whole `module.exports` object, as Node
// does: the client would then call an object. The CommonJS build asks for `.default` by name.
const openapiFetchDefault: Plugin = {
  name: "openapi-fetch-default",
  setup(build) {
    build.onResolve({ filter: /^openapi-fetch$/ }, (args) =>
      args.namespace === "openapi-fetch-default" ? { path: args.path, external: true } : { path: "openapi-fetch", namespace: "openapi-fetch-default" },
    );
    build.onLoad({ filter: /.*/, namespace: "openapi-fetch-default" }, () => ({
      contents: `module.exports = require("openapi-fetch").default;`,
      loader: "js",
      resolveDir: repoRoot,
    }));
  },
};

/**
 * Node's `import` entry: the CommonJS build's exports, each by name. Node finds the names of a CommonJS module by
 * reading its source, which misses an esbuild bundle's; so they are listed, read from the built module itself.
 */
async function writeNodeWrapper(outDir: string): Promise<void> {
  const built = createRequire(import.meta.url)(path.join(outDir, "index.cjs")) as Record<string, unknown>;
  const names = Object.keys(built).filter((name) => name !== "default" && name !== "__esModule");
  await writeFile(
    path.join(outDir, "index.node.mjs"),
    `// Node's import of the package: the CommonJS build, so that import and require share one copy of each class.\nimport kit from "./index.cjs";\n\nexport const { ${names.join(", ")} } = kit;\n`,
  );
}

/** The CommonJS build: one file, openapi-fetch external, no minification (apps' bundlers minify). */
async function buildCommonJs(outfile: string): Promise<void> {
  await build({
    entryPoints: [fromRoot("src", "index.ts")],
    outfile,
    bundle: true,
    format: "cjs",
    platform: "neutral",
    target: "es2022",
    plugins: [openapiFetchDefault],
    logLevel: "silent",
  });
}

/**
 * The .d.cts twin of every .d.ts: TypeScript reads a .d.ts of a "type": "module" package as ESM, so a `require`
 * needs declarations that are CommonJS by their extension, importing each other as `.cjs`.
 */
async function writeCommonJsDeclarations(outDir: string): Promise<void> {
  const declarations = (await readdir(outDir, { recursive: true })).filter((f) => f.endsWith(".d.ts"));
  await Promise.all(
    declarations.map(async (file) => {
      const text = await readFile(path.join(outDir, file), "utf8");
      const cjs = text.replace(/((?:from|import)\s*\(?\s*)"(\.\.?\/[^"]+)\.js"/g, '$1"$2.cjs"');
      await writeFile(path.join(outDir, file.replace(/\.d\.ts$/, ".d.cts")), cjs);
    }),
  );
}
