import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import { runCommand } from "../../lib/process.ts";
import { bin, repoRoot } from "../../scripts/lib/paths.ts";

/** Runs a command to completion and expects exit 0, showing its output when it fails; resolves with the output. */
export async function run(
  command: string,
  args: string[],
  cwd = repoRoot,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  const result = await runCommand(command, args, { cwd, env });
  expect(result.code, `${path.basename(command)} ${args.join(" ")}\n${result.output}`).toBe(0);
  return result.output;
}

/** publint (strict) on the package's tarball, what npm publishes: it must pass. */
export async function publint(tarball: string): Promise<void> {
  expect(await run(bin("publint"), ["run", tarball, "--strict"])).toContain("All good!");
}

/** publint (strict) and arethetypeswrong on the package's tarball: both must pass. */
export async function lintPackage(tarball: string, attwFlags: string[] = []): Promise<void> {
  await publint(tarball);
  await run(bin("attw"), [tarball, "--profile", "esm-only", ...attwFlags]);
}

/**
 * A new project in `folder` with the tarballs installed, as a user would do (by default with the Node that runs the
 * tests; `env` puts another first); resolves with the folder. The install must print no EBADENGINE warning: every
 * package it brings supports that Node.
 */
export async function installInto(
  folder: string,
  tarballs: string | string[],
  manifest: Record<string, unknown> = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  await mkdir(folder, { recursive: true });
  await writeFile(
    path.join(folder, "package.json"),
    JSON.stringify({ name: path.basename(folder), private: true, ...manifest }),
  );
  const output = await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", ...[tarballs].flat()],
    folder,
    env,
  );
  expect(output).not.toMatch(/EBADENGINE/);
  return folder;
}
