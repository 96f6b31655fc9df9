// The fenced blocks of the kit's Markdown pages, for the tests that compile and run them (test/repo/doc-samples.test.ts,
// test/consumers/doc-samples-run.test.ts).
import { readFileSync } from "node:fs";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { trackedFiles } from "./tracked-files.ts";

/** A fenced block of a page: where it is, its language and its code; `notRun` is the reason of its marker, if any. */
export interface DocBlock {
  page: string;
  /** The line of its opening fence, from 1. */
  line: number;
  lang: string;
  code: string;
  notRun: string | undefined;
}

/**
 * The marker that excludes a block from being run, on the line right before its fence, with the reason:
 * `<!-- sample: not run, because REASON -->` (docs/decisions.md, "Every sample in the docs runs").
 */
export const NOT_RUN = /<!-- sample: not run, because ([^>]*\S)\s*-->\s*$/;

/** The pages whose samples a reader copies: the README, docs/, and the README of each published package. */
export const SAMPLE_PAGES = ["README.md", ...trackedFiles("docs/*.md"), "contract-tests/README.md", "sandbox/README.md"];

/** Every fenced block of a page (fences at the start of a line, as the kit's pages write them). */
export function fencedBlocks(page: string, text = readFileSync(fromRoot(page), "utf8")): DocBlock[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => {
    const before = text.slice(0, match.index);
    return {
      page,
      line: before.split("\n").length,
      lang: match[1]!,
      code: match[2]!,
      notRun: NOT_RUN.exec(before.trimEnd().split("\n").at(-1) ?? "")?.[1],
    };
  });
}
