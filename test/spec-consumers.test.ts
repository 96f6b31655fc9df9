import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { createClient } from "@hey-api/openapi-ts";
import spectralCore from "@stoplight/spectral-core";
import spectralParsers from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { runCommand } from "../lib/process.ts";
import { bin, bundledSpec } from "../scripts/lib/paths.ts";
import { ensureBundle } from "./support/sandbox.ts";

// What other teams run on the published bundle. Each tool is a pinned devDependency.

/** Rules of spectral:oas turned off, each with its reason. */
const SPECTRAL_RULES_OFF = {
  // The service description names no owner or support contact; the spec does not make one up.
  "info-contact": "the service description names no contact",
};

// A TypeScript program an app would write against the generated client: it must compile, and the spec's types
// must have come through (a label of the wrong type is an error).
const APP = `import { getFile, getFileDownloadUrl, updateFile } from "./client/index";

export async function labelsAndUrl(): Promise<string[]> {
  const { data: file } = await getFile({ path: { file_id: "f" } });
  await updateFile({ path: { file_id: "f" }, body: { labels: ["a"], publicUrl: "https://cdn.example.com/f" } });
  // @ts-expect-error labels are strings in the spec
  await updateFile({ path: { file_id: "f" }, body: { labels: [1] } });
  const { data: url } = await getFileDownloadUrl({ path: { file_id: "f" } });
  return [...(file?.labels ?? []), url ?? ""];
}
`;

let scratch: string;
beforeAll(async () => {
  ensureBundle();
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-consumers-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("the bundled spec, in the tools other teams use", { timeout: 120_000 }, () => {
  it("@apidevtools/swagger-parser (what `swagger-cli validate` runs) validates it", async () => {
    const api = await SwaggerParser.validate(bundledSpec.json);
    expect(api.info.title).toBe("File Library API");
  });

  it("Spectral's spectral:oas ruleset finds no error and no warning", async () => {
    const { Spectral, Document } = spectralCore;
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [oas], rules: Object.fromEntries(Object.keys(SPECTRAL_RULES_OFF).map((rule) => [rule, "off"])) } as never);
    const results = await spectral.run(new Document(await readFile(bundledSpec.yaml, "utf8"), spectralParsers.Yaml, bundledSpec.yaml));
    // Severity 0 is an error, 1 a warning; infos and hints are advice.
    const problems = results.filter((r) => r.severity <= 1).map((r) => `${r.code} at ${r.path.join(".")}: ${r.message}`);
    expect(problems).toEqual([]);
  });

  it("@hey-api/openapi-ts generates a client with the three operations that compiles under tsc --strict", async () => {
    // An absolute path: a relative one reads to hey-api as the name of a spec in its online registry.
    await createClient({
      input: path.resolve(bundledSpec.json),
      output: { path: path.join(scratch, "client") },
      plugins: ["@hey-api/client-fetch"],
      logs: { level: "silent", file: false },
    } as never);
    const sdk = await readFile(path.join(scratch, "client", "sdk.gen.ts"), "utf8");
    for (const operation of ["getFile", "updateFile", "getFileDownloadUrl"]) expect(sdk).toMatch(new RegExp(`^export const ${operation} = `, "m"));
    await writeFile(path.join(scratch, "app.ts"), APP);
    const compiled = await runCommand(
      bin("tsc"),
      ["--strict", "--noEmit", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--lib", "es2022,dom,dom.iterable", "app.ts"],
      { cwd: scratch },
    );
    expect(compiled.code, compiled.output).toBe(0);
  });
});
