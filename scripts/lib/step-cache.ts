import { createHash, type Hash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fromRoot, repoRoot } from "./paths.ts";

function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * A step's proof that it already passed on the very same inputs: a hash of every input, kept in
 * node_modules/.cache/file-library-kit (where tools keep their caches; a fresh install has none). `npm run contract`
 * skips its lint and its bundle on a hit, as the drift check skips generation on the hash its file records.
 */
export interface StepRecord {
  /** The hash of the step's inputs when it passed. */
  inputs: string;
  /** What the step printed then. */
  output: string;
  /** The hashes of the files it wrote then: a hit also needs them unchanged. */
  outputs: Record<string, string>;
}

/**
 * Where the records live: a folder per checkout, for a copy of the repository that links this node_modules (the tests'
 * copies, the packs) must not replace this checkout's records with its own, which name its own files.
 */
export const stepCacheDir = fromRoot(
  "node_modules",
  ".cache",
  "file-library-kit",
  `steps-${sha256(repoRoot).slice(0, 12)}`,
);

/** The hash of a file's bytes, or undefined when it cannot be read. */
export const fileHash = async (file: string): Promise<string | undefined> =>
  readFile(file).then(sha256, () => undefined);

/** Feeds every file of the spec's folder to `hash`, with its path relative to the folder, in a fixed order. */
export async function hashSpecFiles(hash: Hash, specFolder: string): Promise<Hash> {
  const files = (await readdir(specFolder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && /\.(ya?ml|json)$/.test(entry.name))
    .map((entry) => path.relative(specFolder, path.join(entry.parentPath, entry.name)))
    .sort();
  for (const file of files) hash.update(`${file}\0${await readFile(path.join(specFolder, file), "utf8")}\0`);
  return hash;
}

/**
 * The hash of a step's inputs: every file of the spec's folder, and the `extra` files (the tool's config, the
 * installed packages' lockfile, the module that runs the step with its options).
 */
export async function inputsHash(specFolder: string, extra: string[]): Promise<string> {
  const hash = await hashSpecFiles(createHash("sha256"), specFolder);
  for (const file of extra) hash.update(`${path.basename(file)}\0${(await fileHash(file)) ?? "missing"}\0`);
  return hash.digest("hex");
}

const recordFile = (step: string, dir: string) => path.join(dir, `${step}.json`);

/**
 * The step's record when it proves a pass on these inputs that wrote `files`: same hash, the very same files (by
 * path), and each still as it wrote it. A copy of the repository that shares node_modules shares the records: a
 * bundle written in another folder proves nothing here.
 */
export async function provenPass(
  step: string,
  inputs: string,
  files: string[] = [],
  dir = stepCacheDir,
): Promise<StepRecord | undefined> {
  let record: StepRecord | undefined;
  try {
    record = JSON.parse(await readFile(recordFile(step, dir), "utf8")) as StepRecord;
  } catch {
    return undefined; // none yet, or unreadable: no proof
  }
  if (record?.inputs !== inputs || typeof record.outputs !== "object" || record.outputs === null) return undefined;
  if (Object.keys(record.outputs).sort().join("\0") !== [...files].sort().join("\0")) return undefined;
  const written = await Promise.all(
    Object.entries(record.outputs).map(async ([file, hash]) => (await fileHash(file)) === hash),
  );
  return written.every(Boolean) ? record : undefined;
}

/** Records a pass of the step on these inputs, with the files it wrote (written aside, then renamed: runs may overlap). */
export async function recordPass(
  step: string,
  inputs: string,
  output: string,
  files: string[] = [],
  dir = stepCacheDir,
): Promise<void> {
  const outputs: Record<string, string> = {};
  for (const file of files) {
    const hash = await fileHash(file);
    if (hash === undefined) return;
    outputs[file] = hash;
  }
  await mkdir(dir, { recursive: true });
  const temp = `${recordFile(step, dir)}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temp, JSON.stringify({ inputs, output, outputs } satisfies StepRecord));
    await rename(temp, recordFile(step, dir));
  } finally {
    await rm(temp, { force: true });
  }
}
