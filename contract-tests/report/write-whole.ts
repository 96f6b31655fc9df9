import { randomUUID } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** A file beside `file`, unique to this write, that is renamed over it once whole. */
const besideIt = (file: string) => `${file}.${process.pid}-${randomUUID().slice(0, 8)}.tmp`;

/**
 * Writes a report whole or not at all: it is written beside its place, then renamed over it, so that a reader (a CI
 * step that uploads it, an app that polls it while the proxy writes it again) never reads half of one. A write that
 * fails leaves the file as it was and nothing beside it.
 */
export async function writeWhole(file: string, text: string): Promise<void> {
  const temporary = besideIt(file);
  try {
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** writeWhole for a caller that writes its reports synchronously (the suite's summary, on its way out). */
export function writeWholeSync(file: string, text: string): void {
  const temporary = besideIt(file);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Writes a command's reports, each whole, into `dir` (made if missing); resolves with their names. */
export async function writeReportFiles(dir: string, files: Record<string, string>): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  await Promise.all(Object.entries(files).map(([name, text]) => writeWhole(path.join(dir, name), text)));
  return Object.keys(files);
}
