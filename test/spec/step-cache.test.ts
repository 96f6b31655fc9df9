import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lintSpec } from "../../scripts/lib/redocly.ts";
import { inputsHash, provenPass, recordPass } from "../../scripts/lib/step-cache.ts";

describe("step-cache: a step is skipped only on proof that it passed on the very same inputs", () => {
  let dir: string;
  let spec: string;
  let records: string;
  let config: string;
  let output: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "step-cache-"));
    spec = path.join(dir, "openapi");
    records = path.join(dir, "records");
    config = path.join(dir, "redocly.yaml");
    output = path.join(dir, "bundle.json");
    await mkdir(path.join(spec, "paths"), { recursive: true });
    await writeFile(path.join(spec, "openapi.yaml"), "openapi: 3.1.0\n");
    await writeFile(path.join(spec, "paths", "files.yaml"), "get: {}\n");
    await writeFile(config, "rules: {}\n");
    await writeFile(output, "{}\n");
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const hash = () => inputsHash(spec, [config]);

  it("a pass recorded on these inputs is proven, with what the step printed", async () => {
    const inputs = await hash();
    expect(await provenPass("lint", inputs, [output], records)).toBeUndefined();
    await recordPass("lint", inputs, "valid.\n", [output], records);
    expect(await provenPass("lint", inputs, [output], records)).toMatchObject({ inputs, output: "valid.\n" });
    expect(await provenPass("bundle", inputs, [output], records)).toBeUndefined();
  });

  it.each([
    [
      "a file of the spec changes",
      (s: string) => writeFile(path.join(s, "paths", "files.yaml"), "get: { deprecated: true }\n"),
    ],
    ["a file is added to the spec", (s: string) => writeFile(path.join(s, "paths", "more.yaml"), "put: {}\n")],
    [
      "a file of the spec is renamed",
      async (s: string) => {
        await rm(path.join(s, "paths", "files.yaml"));
        await writeFile(path.join(s, "paths", "file.yaml"), "get: {}\n");
      },
    ],
    ["an extra input changes (the config)", () => writeFile(config, "rules: { no-empty-servers: error }\n")],
  ])("no proof once %s", async (_, change) => {
    const before = await hash();
    await recordPass("lint", before, "valid.\n", [], records);
    await change(spec);
    const after = await hash();
    expect(after).not.toBe(before);
    expect(await provenPass("lint", after, [], records)).toBeUndefined();
  });

  it("no proof once a file the step wrote was changed or removed since", async () => {
    const inputs = await hash();
    await recordPass("bundle", inputs, "", [output], records);
    await writeFile(output, '{ "edited": true }\n');
    expect(await provenPass("bundle", inputs, [output], records)).toBeUndefined();
    await recordPass("bundle", inputs, "", [output], records);
    await rm(output);
    expect(await provenPass("bundle", inputs, [output], records)).toBeUndefined();
  });

  it("no proof for files at another place: a copy of the repository that shares node_modules shares the records", async () => {
    const inputs = await hash();
    const elsewhere = path.join(dir, "copy", "bundle.json");
    await mkdir(path.dirname(elsewhere), { recursive: true });
    await recordPass("bundle", inputs, "", [output], records);
    expect(await provenPass("bundle", inputs, [elsewhere], records)).toBeUndefined();
    expect(await provenPass("bundle", inputs, [], records)).toBeUndefined();
    expect(await provenPass("bundle", inputs, [output], records)).toMatchObject({ inputs });
  });

  it("a record that cannot be read proves nothing", async () => {
    await mkdir(records, { recursive: true });
    await writeFile(path.join(records, "lint.json"), "{ not json");
    expect(await provenPass("lint", await hash(), [], records)).toBeUndefined();
  });
});

describe("npm run contract's lint on a proven pass is not run again (the bundle's: build-spec.test.ts)", {
  timeout: 60_000,
}, () => {
  it("the lint shows its last output again, saying so, and lint:spec (no reuse) lints anew", async () => {
    await lintSpec({ reuse: true });
    const again = await lintSpec({ reuse: true });
    expect(again).toMatchObject({ ok: true, reused: true });
    expect(again.output).toContain("(shown from the last lint of these very inputs: `npm run lint:spec` lints anew)");
    expect(again.output).toContain("Woohoo! Your API description is valid.");
    const anew = await lintSpec();
    expect(anew.ok).toBe(true);
    expect(anew.reused).toBeUndefined();
    expect(anew.output).not.toContain("shown from the last lint");
  });
});
