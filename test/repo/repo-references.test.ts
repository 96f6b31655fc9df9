import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { trackedFiles } from "../support/tracked-files.ts";

const tracked = trackedFiles()
  .filter((file) => !file.endsWith("package-lock.json") && existsSync(fromRoot(file)))
  .filter((file) => /\.(ts|mts|cjs|js|json|ya?ml|md)$|^\.ci\//.test(file));
const text = (file: string) => readFileSync(fromRoot(file), "utf8");
const sections = new Set([...text("docs/decisions.md").matchAll(/^## (.+)$/gm)].map((m) => m[1]!));

describe("the repo stands on its own", () => {
  it("no file refers to a file outside the repo", () => {
    const outside = /\.\.\/shared\b|\bshared\/design|\bdesign\.md\b|service-description\.md/;
    expect(tracked.filter((file) => file !== "test/repo/repo-references.test.ts" && outside.test(text(file)))).toEqual([]);
  });

  it('every "decisions.md, <section>" a text or comment cites is a section of docs/decisions.md', () => {
    const cited = tracked.flatMap((file) =>
      [...text(file).matchAll(/decisions\.md, ([A-Z][^).;"`]*)/g)].map((m) => ({ file, section: m[1]!.trim() })),
    );
    expect(cited.length).toBeGreaterThan(5);
    expect(cited.filter((c) => !sections.has(c.section))).toEqual([]);
  });

  it('every section of docs/decisions.md cited in quotes ("Ten minutes for `npm test`" in docs/decisions.md) begins a section', () => {
    const quoted = tracked.flatMap((file) =>
      [...text(file).matchAll(/"([^"\n]+)" in docs\/decisions\.md|docs\/decisions\.md \("([^"\n]+)"\)/g)].map((m) => ({ file, section: (m[1] ?? m[2])! })),
    );
    expect(quoted.length).toBeGreaterThan(1);
    expect(quoted.filter((c) => ![...sections].some((section) => section.startsWith(c.section)))).toEqual([]);
  });
});
