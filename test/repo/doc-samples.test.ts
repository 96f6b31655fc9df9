// covers: README.md, docs/
// Every TypeScript sample of the README and docs/ compiles as written, under the repo's strict tsconfig, against the
// packages it imports (the client, its fake, the contract suite, the sandbox's testing entry: their sources, by package name as an app writes them).
// It reads what a reader copies: a sample that uses a name it does not import, or an option the API lacks, fails here.
// Each sample also runs, from the packed packages against the packed sandbox: test/consumers/doc-samples-run.test.ts.
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { fromRoot, repoRoot } from "../../scripts/lib/paths.ts";
import { fencedBlocks } from "../support/doc-blocks.ts";
import { trackedFiles } from "../support/tracked-files.ts";

/** A sample is skipped only with a reason, on the line before its fence: <!-- sample: not compiled, because ... --> */
const SKIP = /^not compiled, because \S/;

const samples = ["README.md", ...trackedFiles("docs/*.md")]
  .flatMap((page) => fencedBlocks(page))
  .filter(({ lang, marker }) => lang === "ts" && !SKIP.test(marker ?? ""))
  .map(({ page, line, code }, i) => ({
    page,
    line,
    // A virtual file beside the sources, so that the tsconfig's package names resolve; `export {}` keeps each a module of its own.
    file: path.join(repoRoot, "doc-samples", `${page.replace(/\W/g, "-")}-${i + 1}.ts`),
    code: `${code}\nexport {};\n`,
  }));

describe("the docs' TypeScript samples", () => {
  it("finds the samples of the client, the fake, MSW and runSuite", () => {
    expect(samples.map(({ page }) => page)).toEqual(
      expect.arrayContaining(["README.md", "docs/client.md", "docs/testing-your-app.md", "docs/checking-a-server.md"]),
    );
  });

  it("each compiles as written, under the repo's strict settings", { timeout: 60_000 }, () => {
    const config = ts.getParsedCommandLineOfConfigFile(
      fromRoot("tsconfig.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!;
    // The contract package and the sandbox's testing entry by their names, as for the client: their sources (their dist/ exists only once built).
    const packages = {
      "file-library-contract": ["./contract-tests/index.ts"],
      "file-library-sandbox/testing": ["./sandbox/testing/index.ts"],
    };
    const options = { ...config.options, paths: { ...config.options.paths, ...packages } };
    const host = ts.createCompilerHost(options);
    const virtual = new Map(samples.map(({ file, code }) => [file, code]));
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (file, language, ...rest) =>
      virtual.has(file)
        ? ts.createSourceFile(file, virtual.get(file)!, language)
        : getSourceFile.call(host, file, language, ...rest);
    host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
    host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
    const program = ts.createProgram([...virtual.keys()], options, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && virtual.has(d.file.fileName))
      .map((d) => {
        const sample = samples.find(({ file }) => file === d.file!.fileName)!;
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        return `${sample.page}:${sample.line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
      });
    expect(problems).toEqual([]);
  });
});
