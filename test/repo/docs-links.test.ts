// covers: README.md, docs/, contract-tests/README.md, sandbox/README.md
// Every relative link in the repository's Markdown leads to a file that exists (and to a heading of it, when it names
// one), every `npm run` command the docs name is a script of the package they are read in, and every version of one of
// our packages they name is the one its package.json has.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { trackedFiles } from "../support/tracked-files.ts";

const pages = trackedFiles("*.md").filter((file) => !file.includes("node_modules/"));
const text = (file: string) => readFileSync(fromRoot(file), "utf8");

/** GitHub's anchor of a heading: lowercased, punctuation dropped, spaces to dashes. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-");
const anchorsOf = (file: string) => new Set([...text(file).matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1]!)));

describe("the docs' links and commands", () => {
  it("reads the README and the pages it links to", () => {
    expect(pages).toEqual(
      expect.arrayContaining([
        "README.md",
        "docs/client.md",
        "docs/architecture.md",
        "docs/benchmarks.md",
        "docs/decisions.md",
      ]),
    );
    // The README is the door: short, with one path per reader.
    expect(text("README.md").split("\n").length).toBeLessThan(200);
  });

  it("has no relative link that leads nowhere, or out of the repository", () => {
    const broken: string[] = [];
    for (const page of pages) {
      // Code spans and blocks are not links.
      const prose = text(page)
        .replace(/```[^]*?```/g, "")
        .replace(/`[^`\n]*`/g, "");
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [file, anchor] = target!.split("#");
        const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), file)) : page;
        if (resolved.startsWith("../")) broken.push(`${page}: ${target} (outside the repository)`);
        else if (!existsSync(fromRoot(resolved))) broken.push(`${page}: ${target} (no ${resolved})`);
        else if (anchor && resolved.endsWith(".md") && !anchorsOf(resolved).has(anchor))
          broken.push(`${page}: ${target} (no heading #${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("names only npm run commands that exist where they are read", () => {
    const scriptsOf = (manifest: string) =>
      Object.keys((JSON.parse(text(manifest)) as { scripts?: Record<string, string> }).scripts ?? {});
    const root = new Set(scriptsOf("package.json"));
    const unknown = pages.flatMap((page) =>
      [...text(page).matchAll(/npm run ([\w:-]+)/g)]
        .map((m) => m[1]!)
        .filter((name) => !root.has(name))
        .map((name) => `${page}: npm run ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it("names each of our packages only at the version its package.json has (npx name@version, name-version.tgz)", () => {
    const versions = Object.fromEntries(
      ["package.json", "contract-tests/package.json", "sandbox/package.json"].map((manifest) => {
        const { name, version } = JSON.parse(text(manifest)) as { name: string; version: string };
        return [name, version];
      }),
    );
    expect(Object.keys(versions).sort()).toEqual(["file-library-contract", "file-library-kit", "file-library-sandbox"]);
    const named = pages.flatMap((page) =>
      [...text(page).matchAll(/\b(file-library-(?:kit|contract|sandbox))[@-](\d+\.\d+\.\d+)\b/g)].map(
        ([whole, name, version]) => ({ page, whole, name: name!, version }),
      ),
    );
    // The test reads something: the CI recipe pins the contract package.
    expect(named.some(({ page }) => page === "docs/checking-a-server.md")).toBe(true);
    expect(
      named
        .filter(({ name, version }) => versions[name] !== version)
        .map(({ page, whole, name }) => `${page}: ${whole} (package.json: ${versions[name]})`),
    ).toEqual([]);
  });
});
