import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NODE_PACKAGE_BUILD } from "../../lib/node-package-build.ts";

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "node-package-build-"));
  await writeFile(path.join(root, "shared.ts"), `import { fc } from "fast-check";\nexport const shared = () => fc;\n`);
  await writeFile(path.join(root, "cli.ts"), `import { shared } from "./shared.ts";\nconsole.log(shared());\n`);
  await writeFile(path.join(root, "index.ts"), `export { shared } from "./shared.ts";\n`);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("NODE_PACKAGE_BUILD: how the kit's Node packages are bundled", () => {
  it("bundles the kit's own modules as ESM, one shared chunk at the top of the output, npm packages left as imports", async () => {
    const { outputFiles } = await build({
      ...NODE_PACKAGE_BUILD,
      absWorkingDir: root,
      entryPoints: ["cli.ts", "index.ts"],
      outdir: path.join(root, "dist"),
      outbase: root,
      write: false,
    });
    const names = outputFiles.map((file) => path.relative(path.join(root, "dist"), file.path)).sort();
    expect(names).toEqual(["cli.js", expect.stringMatching(/^chunk-[A-Z0-9]+\.js$/), "index.js"].sort());
    const chunk = outputFiles.find((file) => path.basename(file.path).startsWith("chunk-"))!.text;
    expect(chunk).toMatch(/from "fast-check"/);
    expect(outputFiles.find((file) => file.path.endsWith("cli.js"))!.text).toMatch(/from "\.\/chunk-/);
  });
});
