import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { bin, fromRoot, repoRoot } from "../scripts/lib/paths.ts";
import { installInto, lintPackage, pack, run } from "./support/packages.ts";
import { sandbox, SANDBOX_KEY } from "./support/sandbox.ts";

// What an app does with the published client: import it, type-check against it, run it.
const APP = `import { createFileLibraryClient, UnprocessableEntityError, type FileMetadata } from "file-library-kit";
import spec from "file-library-kit/openapi.json" with { type: "json" };

const client = createFileLibraryClient();
const file: FileMetadata = await client.files.get("doc-1");
const check = () => {
  // @ts-expect-error labels are strings: the published types must say so
  void client.files.update("doc-1", { labels: [1] });
};
void check;
let unknown = "no error";
try {
  await client.files.get("no-such-file");
} catch (error) {
  if (error instanceof UnprocessableEntityError) unknown = \`\${error.name} \${error.status}\`;
}
console.log(JSON.stringify({ name: file.name, size: file.size, unknown, specVersion: spec.info.version }));
`;

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-package-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("the client package", { timeout: 240_000 }, () => {
  it("builds, passes publint and arethetypeswrong, and installs from its tarball into an app that type-checks and runs", async () => {
    const tarball = await pack(scratch);
    await lintPackage(repoRoot, tarball, ["--exclude-entrypoints", "./openapi.yaml"]);
    const app = await installInto(path.join(scratch, "app"), tarball, { type: "module" });
    const installed = JSON.parse(await readFile(path.join(app, "node_modules/file-library-kit/package.json"), "utf8"));
    expect(Object.keys(installed.dependencies)).toEqual(["openapi-fetch"]);
    expect(await readdir(path.join(app, "node_modules"))).not.toContain("ajv");

    await writeFile(path.join(app, "app.ts"), APP);
    await run(bin("tsc"), ["--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--lib", "es2022,dom", "--resolveJsonModule", "--outDir", "out", "app.ts"], app);

    const sb = await sandbox({ fixturesFile: fromRoot("test/fixtures/sandbox-files.json") });
    try {
      const output = await run(process.execPath, ["out/app.js"], app, { ...process.env, FILE_LIBRARY_BASE_URL: sb.baseUrl, FILE_LIBRARY_API_KEY: SANDBOX_KEY });
      expect(JSON.parse(output.trim())).toEqual({ name: "report.txt", size: 5, unknown: "UnprocessableEntityError 422", specVersion: "1.0.0" });
    } finally {
      await sb.close();
    }
  });
});
