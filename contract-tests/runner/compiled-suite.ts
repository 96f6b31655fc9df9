/**
 * The suite as JavaScript, for runs from its TypeScript source (the kit's repo): compiled as the published package
 * is, into node_modules/.cache, where vitest loads modules as Node does instead of transforming each of them through
 * vite (half a second of a run from a fresh clone: docs/decisions.md, The suite runs compiled). The published
 * package is compiled already and never reaches this module (scripts/build-contract.ts leaves it out).
 */
import { createHash, randomUUID } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";
import { NODE_PACKAGE_BUILD } from "../../lib/node-package-build.ts";

const suiteRoot = fileURLToPath(new URL("..", import.meta.url));

/** How the suite is compiled, here and for the package: as the kit's Node packages are, and marked compiled (see run-suite.ts). */
export const SUITE_BUILD = { ...NODE_PACKAGE_BUILD, define: { "import.meta.suiteFromSource": "false" } } as const;

/** The files vitest loads of the suite in `root`: its config, the files the config names by path, the test files. */
export async function suiteEntries(root: string, ext = ".ts"): Promise<string[]> {
  const tests = (await readdir(root)).filter((file) => file.endsWith(`.contract.test${ext}`)).sort();
  return [`vitest.config${ext}`, `run/global-setup${ext}`, `run/setup${ext}`, `run/progress-reporter${ext}`, `run/summary-reporter${ext}`, ...tests];
}

/** Where the compiled suites live: the cache folder of the node_modules that holds vitest (a fresh install has none). */
function cacheRoot(): string {
  const vitest = createRequire(import.meta.url).resolve("vitest/package.json");
  return path.join(path.dirname(path.dirname(vitest)), ".cache", "file-library-contract");
}

/** What a compile proved: the key of its inputs (each file's bytes as esbuild read them), and those files. */
interface CompileRecord {
  key: string;
  files: string[];
}

// Modules the compile reads through loadAndHash, by extension; any other input leaves the compile unproven.
const LOADERS = { ".ts": "ts", ".mts": "ts", ".cts": "ts", ".js": "js", ".mjs": "js", ".cjs": "js", ".json": "json" } as const;
// A compiled suite unused this long goes, once another is compiled: runs in progress touch theirs.
const STALE_MS = 60 * 60 * 1000;

/** The key of a compile's inputs: this module, the build's options (SUITE_BUILD), esbuild's version, each file's bytes. */
function keyOf(self: Buffer, esbuildVersion: string, hashes: Map<string, string>): string {
  const hash = createHash("sha256").update(self).update(`\0${JSON.stringify(SUITE_BUILD)}\0${esbuildVersion}\0`);
  for (const file of [...hashes.keys()].sort()) hash.update(`${file}\0${hashes.get(file)}\0`);
  return hash.digest("hex").slice(0, 24);
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/**
 * The config file of the suite compiled from `root` (default: this suite's source), compiled first unless a record
 * proves a compile of the very same bytes; undefined when it cannot be compiled or kept (a source that does not
 * compile, a cache folder that cannot be written): the source then runs as it is, and vitest reports what does not
 * compile in its own words. Concurrent runs may compile at once: each writes aside and renames.
 */
export async function compiledSuiteConfig(root = suiteRoot, cache = cacheRoot()): Promise<string | undefined> {
  return compile(root, cache).catch(() => undefined);
}

async function compile(root: string, cache: string): Promise<string> {
  const [self, esbuild] = await Promise.all([readFile(fileURLToPath(import.meta.url)), import("esbuild")]);
  // One record per copy of the suite: copies that share node_modules must not take each other's compile as theirs.
  const recordFile = path.join(cache, `record-${sha256(Buffer.from(root)).slice(0, 16)}.json`);
  const config = (key: string) => path.join(cache, key, "dist", "vitest.config.js");
  const proven = await readRecord(recordFile);
  if (proven) {
    const hashes = new Map(await Promise.all(proven.files.map(async (file) => [file, await readFile(file).then(sha256, () => "missing")] as const)));
    if (keyOf(self, esbuild.version, hashes) === proven.key && (await stat(config(proven.key)).catch(() => undefined))) {
      const now = new Date();
      await utimes(path.join(cache, proven.key), now, now).catch(() => {});
      return config(proven.key);
    }
  }
  await mkdir(cache, { recursive: true });
  const aside = await mkdtemp(path.join(cache, "compiling-"));
  try {
    const hashes = new Map<string, string>();
    let unproven = false;
    const loadAndHash: Plugin = {
      name: "load-and-hash",
      setup(build) {
        build.onLoad({ filter: /.*/ }, async ({ path: file }) => {
          const loader = LOADERS[path.extname(file) as keyof typeof LOADERS];
          if (!loader) {
            unproven = true;
            return undefined;
          }
          const contents = await readFile(file);
          hashes.set(file, sha256(contents));
          return { contents, loader };
        });
      },
    };
    await esbuild.build({
      ...SUITE_BUILD,
      absWorkingDir: root,
      entryPoints: await suiteEntries(root),
      outdir: path.join(aside, "dist"),
      outbase: root,
      plugins: [loadAndHash],
      logLevel: "silent",
    });
    // The manifest beside dist/, as in the package: the suite finds its version there.
    await copyFile(path.join(root, "package.json"), path.join(aside, "package.json"));
    const key = keyOf(self, esbuild.version, hashes);
    await rename(aside, path.join(cache, key)).catch(async (error: NodeJS.ErrnoException) => {
      // Another run compiled the same bytes first: its copy is as good as ours.
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    });
    if (!unproven) await writeRecord(recordFile, { key, files: [...hashes.keys()].sort() });
    await pruneStale(cache, key);
    return config(key);
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
}

async function readRecord(file: string): Promise<CompileRecord | undefined> {
  try {
    const record = JSON.parse(await readFile(file, "utf8")) as Partial<CompileRecord>;
    return typeof record.key === "string" && Array.isArray(record.files) ? (record as CompileRecord) : undefined;
  } catch {
    return undefined; // none yet, or unreadable: no proof
  }
}

async function writeRecord(file: string, record: CompileRecord): Promise<void> {
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(temp, JSON.stringify(record));
  await rename(temp, file);
}

/** Removes the compiled suites (and abandoned compiles) that no run has used for STALE_MS, but `keep`. */
async function pruneStale(cache: string, keep: string): Promise<void> {
  const entries = await readdir(cache, { withFileTypes: true });
  const now = Date.now();
  await Promise.all(
    entries
      .filter((entry) => entry.isDirectory() && entry.name !== keep)
      .map(async ({ name }) => {
        const dir = path.join(cache, name);
        const { mtimeMs } = await stat(dir).catch(() => ({ mtimeMs: now }));
        if (now - mtimeMs > STALE_MS) await rm(dir, { recursive: true, force: true });
      }),
  );
}
