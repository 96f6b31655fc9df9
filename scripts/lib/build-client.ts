import { copyFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { generateDtsBundle } from "dts-bundle-generator";
import { build, type BuildOptions, type Plugin } from "esbuild";
import { loadBundledSpec } from "../../lib/openapi/load.ts";
import { standaloneValidators } from "../../lib/openapi/standalone.ts";
import { SPEC_ID, type OpenApiValidator } from "../../lib/openapi/validator.ts";
import { runCommand } from "../../lib/process.ts";
import fixtureSchema from "../../sandbox/core/fixture-schema.json" with { type: "json" };
import { bin, bundledSpec, fromRoot, generatedTypes, repoRoot } from "./paths.ts";

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
    buildTesting(outDir),
  ]);
  if (compiled.code !== 0)
    return { ok: false, message: `${compiled.output}\nbuild failed: tsc could not compile src/.` };
  // tsc does not copy .d.ts sources: the generated types go next to the code that imports them.
  await mkdir(path.join(outDir, "generated"), { recursive: true });
  await copyFile(generatedTypes, path.join(outDir, "generated", "schema.d.ts"));
  await writeCommonJsDeclarations(outDir);
  await writeNodeWrapper(outDir);
  return {
    ok: true,
    message: `Built ${path.relative(repoRoot, outDir) || outDir}: index.js and its modules (ESM), index.cjs (CommonJS), index.node.mjs (Node's import), testing.js and testing.cjs (the fake), their .d.ts and .d.cts.`,
  };
}

// openapi-fetch's CommonJS build exports its function as `exports.default` (with __esModule). esbuild, bundling a
// module of a "type": "module" package, takes the default import as the whole `module.exports` object, as Node
// does: the client would then call an object. The CommonJS build gets a module whose whole export is that function,
// with openapi-fetch's named exports (mergeHeaders) on it.
const openapiFetchDefault: Plugin = {
  name: "openapi-fetch-default",
  setup(build) {
    build.onResolve({ filter: /^openapi-fetch$/ }, (args) =>
      args.namespace === "openapi-fetch-default"
        ? { path: args.path, external: true }
        : { path: "openapi-fetch", namespace: "openapi-fetch-default" },
    );
    build.onLoad({ filter: /.*/, namespace: "openapi-fetch-default" }, () => ({
      contents: `const openapiFetch = require("openapi-fetch");\nmodule.exports = Object.assign((options) => openapiFetch.default(options), openapiFetch);`,
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

// The testing entry's CommonJS build cannot `await import("msw")` at its top: it requires it, where the app has it.
const mswRequired: Plugin = {
  name: "msw-required",
  setup(build) {
    build.onLoad({ filter: /sandbox[\\/]msw-module\.ts$/ }, () => ({
      contents: `let msw;\ntry {\n  msw = require("msw");\n} catch {}\nexport { msw };\n`,
      loader: "js",
    }));
  },
};

/**
 * The fake's validators compiled ahead of time: the request bodies of the bundled spec (sandbox/fake-spec.ts) and
 * the fixture list (sandbox/core/fixture-validator.ts). The modules that compile them at run time are swapped for
 * these, with the same exports: workerd, and pages with a strict CSP, forbid generating code at run time.
 */
function precompiledValidators(spec: OpenApiValidator): Plugin {
  const bodies = spec.requestBodies().map((body, i) => ({ ...body, name: `body${i}` }));
  const specModule = `import document from ${JSON.stringify(bundledSpec.json)};
import { resultOf, unsupportedMediaType } from ${JSON.stringify(fromRoot("lib/openapi/validation-errors.ts"))};
${standaloneValidators(Object.fromEntries(bodies.map((b) => [b.name, { $ref: `${SPEC_ID}#${b.pointer}` }])), [{ ...spec.document, $id: SPEC_ID }])}
const bodies = ${`{ ${bodies.map((b) => `${JSON.stringify(`${b.operationId} ${b.mediaType}`)}: ${b.name}`).join(", ")} }`};
const auth = ${JSON.stringify(Object.fromEntries(spec.operationIds().map((id) => [id, spec.requiresAuth(id)])))};
const mediaTypes = ${JSON.stringify(Object.fromEntries(spec.operationIds().map((id) => [id, spec.requestBodyMediaTypes(id)])))};
const spec = {
  document,
  requiresAuth: (operationId) => auth[operationId] ?? true,
  requestBodyMediaTypes: (operationId) => mediaTypes[operationId] ?? [],
  validateRequestBody(operationId, mediaType, body) {
    const validate = bodies[operationId + " " + mediaType];
    if (!validate) return unsupportedMediaType(mediaType, Object.keys(bodies).filter((k) => k.startsWith(operationId + " ")).map((k) => k.slice(operationId.length + 1)));
    return resultOf(validate(body), validate.errors);
  },
};
export const fakeSpec = () => spec;
`;
  const fixturesModule = `${standaloneValidators({ fixtures: fixtureSchema })}
export const fixtureProblems = (data) => (fixtures(data) ? [] : fixtures.errors ?? []);
`;
  return {
    name: "precompiled-validators",
    setup(build) {
      build.onLoad({ filter: /sandbox[\\/]fake-spec\.ts$/ }, () => ({
        contents: specModule,
        loader: "js",
        resolveDir: repoRoot,
      }));
      build.onLoad({ filter: /sandbox[\\/]core[\\/]fixture-validator\.ts$/ }, () => ({
        contents: fixturesModule,
        loader: "js",
        resolveDir: repoRoot,
      }));
    },
  };
}

/**
 * The testing entry (`file-library-kit/testing`): the fake, one file per module system, with what it needs bundled
 * in (the service's core, Ajv, the bundled spec), so that the package gains no dependency; msw stays the app's own.
 */
async function buildTesting(outDir: string): Promise<void> {
  const spec = loadBundledSpec(bundledSpec.json, "run `npm run build:spec` first.");
  const common: BuildOptions = {
    entryPoints: [fromRoot("sandbox", "fake.ts")],
    plugins: [precompiledValidators(spec)],
    bundle: true,
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2022",
    external: ["msw"],
    logLevel: "silent",
  };
  const [types] = generateDtsBundle([{ filePath: fromRoot("sandbox", "fake.ts"), output: { noBanner: true } }], {
    preferredConfigPath: fromRoot("tsconfig.json"),
  });
  await Promise.all([
    build({ ...common, format: "esm", outfile: path.join(outDir, "testing.js") }),
    build({
      ...common,
      format: "cjs",
      outfile: path.join(outDir, "testing.cjs"),
      plugins: [...common.plugins!, mswRequired],
    }),
    writeFile(path.join(outDir, "testing.d.ts"), types!),
    writeFile(path.join(outDir, "testing.d.cts"), types!),
  ]);
}
