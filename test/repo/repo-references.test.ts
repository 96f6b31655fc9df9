import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { trackedFiles } from "../support/tracked-files.ts";

const tracked = trackedFiles()
  .filter((file) => !file.endsWith("package-lock.json") && existsSync(fromRoot(file)))
  .filter((file) => /\.(ts|mts|cjs|js|json|ya?ml|md)$|^\.ci\//.test(file));
const text = (file: string) => readFileSync(fromRoot(file), "utf8");
const decisions = text("docs/decisions.md");
/** Each decision's heading, `### D07. The update`: its id and title, in the page's order. */
const headings = [...decisions.matchAll(/^### (D\d+)\. (.+)$/gm)].map((m) => ({ id: m[1]!, title: m[2]! }));
const ids = new Set(headings.map((h) => h.id));
/** The decision ids a citation names: `docs/decisions.md, D05`, `decisions.md, D05 and D06`, wrapped in a comment or not. */
const citation = /decisions\.md,\s*(?:(?:\/\/|\*|#)\s*)?(D\d+(?:(?:,\s*|\s+and\s+)D\d+)*)/g;
// A citation by a section's name, quoted or not (first, or after an id), or a quoted name followed by "in docs/decisions.md":
// the form ids replaced.
const byName =
  /decisions\.md,\s*(?:(?:\/\/|\*|#)\s*)?(?:D\d+(?:,\s*|\s+and\s+))*\\?"?[A-Z][a-z]|"[^"\n]+" in (?:docs\/)?decisions\.md|decisions\.md \("/g;

describe("the repo stands on its own", () => {
  it("no file refers to a file outside the repo", () => {
    const outside = /\.\.\/shared\b|\bshared\/design|\bdesign\.md\b|service-description\.md/;
    expect(tracked.filter((file) => file !== "test/repo/repo-references.test.ts" && outside.test(text(file)))).toEqual(
      [],
    );
  });
});

describe("docs/decisions.md: ids, contents and citations", () => {
  it("gives every decision a heading with an id, D01 to Dn with none missing or twice (ids are never reused)", () => {
    const others = [...decisions.matchAll(/^#{2,} (.+)$/gm)]
      .map((m) => m[1]!)
      .filter((heading) => !/^D\d+\. /.test(heading));
    expect(others).toEqual(["Contents", "The contract", "How the kit is built and tested"]);
    const numbers = headings.map((h) => Number(h.id.slice(1))).sort((a, b) => a - b);
    expect(numbers.length).toBeGreaterThan(40);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(headings.every((h) => /^D\d{2,}$/.test(h.id))).toBe(true);
  });

  it("lists every decision in its table of contents, in the page's order, linked to its heading", () => {
    const contents = decisions.slice(decisions.indexOf("## Contents"), decisions.indexOf("## The contract\n"));
    const listed = [...contents.matchAll(/^- \[(D\d+)\. (.+)\]\(#([^)]+)\)$/gm)].map((m) => ({
      id: m[1]!,
      title: m[2]!,
      anchor: m[3]!,
    }));
    expect(listed.map(({ id, title }) => ({ id, title }))).toEqual(headings);
    expect(listed.every(({ id, anchor }) => anchor.startsWith(`${id.toLowerCase()}-`))).toBe(true);
  });

  it("has every docs/decisions.md citation name ids that exist", () => {
    const cited = tracked.flatMap((file) =>
      [...text(file).matchAll(citation)].flatMap((m) => m[1]!.split(/,\s*|\s+and\s+/).map((id) => ({ file, id }))),
    );
    expect(cited.length).toBeGreaterThan(100);
    expect(cited.filter((c) => !ids.has(c.id))).toEqual([]);
  });

  it("cites decisions by id, never by a section's name", () => {
    const stale = tracked.flatMap((file) => [...text(file).matchAll(byName)].map((m) => `${file}: ${m[0]}`));
    expect(stale).toEqual([]);
  });
});
