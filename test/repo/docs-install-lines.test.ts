// covers: README.md, docs/, contract-tests/README.md, sandbox/README.md, openapi/openapi.yaml, sandbox/main.ts, package.json, contract-tests/package.json, sandbox/package.json
// None of the three packages is on the npm registry yet, so no command the docs give may fetch one of their names from
// it: whoever published a name first would run in the reader's shell, FILE_LIBRARY_API_KEY in its environment
// (docs/decisions.md, D49). Every `npx` of one of our names carries --no-install (a missing install then
// fails instead of downloading), or comes after a line of the same page that installed it from a tarball or a
// folder; none carries --yes; no `npm i`/`npm install` names one of them without a path.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { SAMPLE_PAGES } from "../support/doc-blocks.ts";

/** Our package names, each with what names it in a path: its tarball's name, or its folder in a clone. */
const OURS: Record<string, RegExp> = {
  "file-library-kit": /file-library-kit/,
  "file-library-contract": /file-library-contract|contract-tests/,
  "file-library-sandbox": /file-library-sandbox|sandbox/,
};

/** A command line of a page: `npx`, `npm exec`, `npm i|install|add`, up to the end of its line, code span or comment. */
const COMMAND = /\b(npx|npm\s+exec|npm\s+(?:i|install|add))\s([^\n`]*)/g;

/** The package a spec names, without its version: `file-library-contract@1.4.0` → `file-library-contract`. */
const nameOf = (spec: string) => spec.replace(/(?<=.)@.*$/, "");
/** A tarball, a folder or a file: URL, which npm installs as it is, never by a registry name. */
const isPath = (spec: string) => /^(\.{1,2}\/|\/|~\/|file:|\$)|\.tgz$/.test(spec);

/** What a line of a page installs from a path, or would fetch from the registry under one of our names. */
function problemsOf(page: string, text: string): string[] {
  const problems: string[] = [];
  const installed = new Set<string>();
  for (const match of text.matchAll(COMMAND)) {
    const where = `${page}:${text.slice(0, match.index).split("\n").length}`;
    const tokens = match[2]!
      .split(/\s#\s/)[0]!
      .trim()
      .split(/\s+/)
      .map((token) => token.replace(/^["']|["']$/g, ""));
    if (/^npm\s+(i|install|add)$/.test(match[1]!)) {
      for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i]!;
        if (/^(--prefix|-w|--workspace)$/.test(token)) {
          i++;
        } else if (isPath(token)) {
          for (const [name, inPath] of Object.entries(OURS)) if (inPath.test(token)) installed.add(name);
        } else if (nameOf(token) in OURS) {
          problems.push(`${where}: ${match[0].trim()} (from the registry; install the tarball or a folder)`);
        }
      }
      continue;
    }
    // npx / npm exec: its flags, then the command; --package names one too.
    const named: string[] = [];
    const flags: string[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      if (token === "-p" || token === "--package") named.push(tokens[++i] ?? "");
      else if (token.startsWith("--package=")) named.push(token.slice("--package=".length));
      else if (token.startsWith("-") && token !== "--") flags.push(token);
      else {
        named.push(token === "--" ? (tokens[i + 1] ?? "") : token);
        break;
      }
    }
    for (const name of new Set(named.map(nameOf).filter((name) => name in OURS))) {
      if (flags.includes("--yes") || flags.includes("-y"))
        problems.push(`${where}: ${match[0].trim()} (--yes downloads ${name} when it is not installed)`);
      else if (!flags.includes("--no-install") && !installed.has(name)) {
        problems.push(
          `${where}: ${match[0].trim()} (${name} not installed before on this page: add --no-install, or install its tarball first)`,
        );
      }
    }
  }
  return problems;
}

describe("the docs' npx and npm install lines fetch none of our packages from the registry", () => {
  it("catches each way a line could", () => {
    const page = [
      "`npx file-library-contract --help`",
      "FILE_LIBRARY_API_KEY=$KEY npx --yes file-library-contract@1.4.0 --base-url x",
      "npx -p file-library-sandbox file-library-sandbox --port 4010",
      "npm i file-library-kit",
      "npm install --save-dev file-library-contract@1.4.0 # the suite",
      "npx --no-install file-library-sandbox --port 4010",
      "npm install ./file-library-contract-1.4.0.tgz   # then",
      "npx file-library-contract proxy --upstream x -- npm test",
      "npx --yes file-library-contract",
      "npm i -D ../kit/contract-tests ./file-library-kit-1.4.0.tgz && npx @redocly/cli lint openapi.yaml",
    ].join("\n");
    expect(problemsOf("page.md", page).map((problem) => problem.split(": ")[0])).toEqual([
      "page.md:1", // bare, nothing installed before
      "page.md:2", // --yes
      "page.md:3", // the package named by -p
      "page.md:4", // npm i of the name
      "page.md:5",
      "page.md:9", // --yes, even after the install
    ]);
  });

  it("in the README, docs/ and the packages' READMEs", () => {
    expect(SAMPLE_PAGES).toEqual(
      expect.arrayContaining([
        "README.md",
        "docs/checking-a-server.md",
        "docs/sandbox.md",
        "contract-tests/README.md",
        "sandbox/README.md",
      ]),
    );
    expect(SAMPLE_PAGES.flatMap((page) => problemsOf(page, readFileSync(fromRoot(page), "utf8")))).toEqual([]);
  });

  it("in what the packages ship besides their READMEs: their descriptions, the spec's text, the sandbox's --help", () => {
    const shipped = [
      "package.json",
      "contract-tests/package.json",
      "sandbox/package.json",
      "openapi/openapi.yaml",
      "sandbox/main.ts",
    ];
    expect(shipped.flatMap((file) => problemsOf(file, readFileSync(fromRoot(file), "utf8")))).toEqual([]);
  });
});
