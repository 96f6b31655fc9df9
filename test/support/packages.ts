import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import { runCommand } from "../../lib/process.ts";
import { bin, repoRoot } from "../../scripts/lib/paths.ts";

/** Runs a command to completion and expects exit 0, showing its output when it fails; resolves with the output. */
export async function run(command: string, args: string[], cwd = repoRoot, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const result = await runCommand(command, args, { cwd, env });
  expect(result.code, `${path.basename(command)} ${args.join(" ")}\n${result.output}`).toBe(0);
  return result.output;
}

/** Packs the root package or a workspace into `destination` (its prepack script builds it first); resolves with the tarball. */
export async function pack(destination: string, workspace?: string): Promise<string> {
  await run("npm", ["pack", ...(workspace ? ["--workspace", workspace] : []), "--pack-destination", destination, "--silent"]);
  const tarballs = (await readdir(destination)).filter((f) => f.endsWith(".tgz"));
  expect(tarballs).toHaveLength(1);
  return path.join(destination, tarballs[0]!);
}

/** publint (strict) on the package's folder and arethetypeswrong on its tarball: both must pass. */
export async function lintPackage(folder: string, tarball: string, attwFlags: string[] = []): Promise<void> {
  expect(await run(bin("publint"), ["--strict"], folder)).toContain("All good!");
  await run(bin("attw"), [tarball, "--profile", "esm-only", ...attwFlags]);
}

/**
 * A new project in `folder` with the tarball installed, as a user would do; resolves with the folder. Its
 * better-sqlite3, if any, installs from the repo's own build (localPrebuilds), as a user's downloads a prebuilt one.
 */
export async function installInto(folder: string, tarball: string, manifest: Record<string, unknown> = {}): Promise<string> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, "package.json"), JSON.stringify({ name: path.basename(folder), private: true, ...manifest }));
  const prebuilds = await localPrebuilds(path.join(folder, ".prebuilds"));
  // prebuild-install reads its settings from the .prebuild-installrc of the folders above where it runs.
  if (prebuilds) await writeFile(path.join(folder, ".prebuild-installrc"), `local-prebuilds=${prebuilds}\n`);
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], folder);
  return folder;
}

/**
 * A folder holding the binary that `npm ci` compiled for the repo's better-sqlite3, packed under the name
 * prebuild-install looks for (its install script tries a prebuilt binary before compiling). A user's install downloads
 * that prebuilt binary from better-sqlite3's releases; this machine reaches none, and would compile it again (70 s on 2
 * cores, four minutes on a slow machine). Undefined where the name cannot be told (musl) or the repo has no build: the
 * install then compiles, as before.
 */
export async function localPrebuilds(folder: string): Promise<string | undefined> {
  const packageDir = path.join(repoRoot, "node_modules", "better-sqlite3");
  const binary = path.join(packageDir, "build", "Release", "better_sqlite3.node");
  const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;
  if (process.platform !== "linux" || !glibc || !existsSync(binary)) return undefined;
  const { version } = JSON.parse(await readFile(path.join(packageDir, "package.json"), "utf8")) as { version: string };
  await mkdir(folder, { recursive: true });
  // prebuild-install's name: {name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz, libc empty for glibc.
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-linux-${process.arch}.tar.gz`;
  await run("tar", ["czf", path.join(folder, name), "-C", packageDir, "build/Release/better_sqlite3.node"]);
  return folder;
}
