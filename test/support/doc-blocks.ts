// The fenced blocks of the kit's Markdown pages, for the tests that compile and run them (test/repo/doc-samples.test.ts,
// test/consumers/doc-samples-run.test.ts).
import { readFileSync } from "node:fs";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { trackedFiles } from "./tracked-files.ts";

/** A fenced block of a page: where it is, its language, its code, and the marker on the line before it, if any. */
export interface DocBlock {
  page: string;
  /** The line of its opening fence, from 1. */
  line: number;
  lang: string;
  code: string;
  /** What its `<!-- sample: ... -->` marker says, such as "not compiled, because ..." (test/repo/doc-samples.test.ts). */
  marker: string | undefined;
  /** The reason of its NOT_RUN marker, if it has one. */
  notRun: string | undefined;
}

/**
 * The marker that excludes a block from being run, on the line right before its fence, with the reason:
 * `<!-- sample: not run, because REASON -->` (docs/decisions.md, D49).
 */
export const NOT_RUN = /<!-- sample: not run, because ([^>]*\S)\s*-->\s*$/;

/** The pages whose samples a reader copies: the README, docs/, and the README of each published package. */
export const SAMPLE_PAGES = [
  "README.md",
  ...trackedFiles("docs/*.md"),
  "contract-tests/README.md",
  "sandbox/README.md",
];

/** Every fenced block of a page (fences at the start of a line, as the kit's pages write them). */
export function fencedBlocks(page: string, text = readFileSync(fromRoot(page), "utf8")): DocBlock[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => {
    const before = text.slice(0, match.index);
    const previous = before.trimEnd().split("\n").at(-1) ?? "";
    return {
      page,
      line: before.split("\n").length,
      lang: match[1]!,
      code: match[2]!,
      marker: /<!-- sample: (.*?)\s*-->\s*$/.exec(previous)?.[1],
      notRun: NOT_RUN.exec(previous)?.[1],
    };
  });
}
