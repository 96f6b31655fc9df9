// covers: package.json, .ci/run
// npm 12 runs a dependency's install scripts only where package.json's allowScripts approves them (docs/decisions.md,
// D41): every package of the lock that has one is named there, bun's alone approved; and no step
// needs Node's headers any more.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fromRoot } from "../../scripts/lib/paths.ts";

const pkg = JSON.parse(readFileSync(fromRoot("package.json"), "utf8")) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(fromRoot("package-lock.json"), "utf8")) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

/** The installed packages that have an install script: declared in the lock, or npm's implicit `node-gyp rebuild`. */
function withInstallScripts(): string[] {
  const names = new Set<string>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where.includes("node_modules/")) continue;
    const name = where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length);
    if (entry.hasInstallScript || existsSync(path.join(fromRoot(where), "binding.gyp"))) names.add(name);
  }
  return [...names].sort();
}

describe("install scripts under npm 12", () => {
  it("names every package with an install script in allowScripts, and approves bun's alone", () => {
    const allow = pkg.allowScripts ?? {};
    expect(Object.keys(allow).sort()).toEqual(withInstallScripts());
    expect(
      Object.entries(allow)
        .filter(([, approved]) => approved)
        .map(([name]) => name),
    ).toEqual(["bun"]);
    expect(allow["@scarf/scarf"]).toBe(false);
  });

  it("runs CI on npm 12, and no step sets npm_config_nodedir", () => {
    const ci = readFileSync(fromRoot(".ci/run"), "utf8");
    expect(ci).toMatch(/^TOOLCHAIN_NPM=12\.\d+\.\d+$/m);
    expect(ci).not.toMatch(/^export npm_config_nodedir/m);
    expect(readFileSync(fromRoot("scripts/lib/registry-node.ts"), "utf8")).not.toContain("npm_config_nodedir");
  });
});
