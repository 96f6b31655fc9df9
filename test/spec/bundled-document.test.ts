import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBundledDocument, SpecLoadError } from "../../lib/openapi/bundled-document.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";

const REMEDY = "run `npm run build:spec`.";

describe("readBundledDocument", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "file-library-bundled-document-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads the kit's bundle as the document it is", () => {
    const document = readBundledDocument(bundledSpec.json, REMEDY);
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.paths)).toContain("/studio/v1/library/files/{file_id}");
  });

  it.each([
    [
      "is missing",
      () => path.join(dir, "none.json"),
      /^The bundled spec .*none\.json is missing: run `npm run build:spec`\.$/,
    ],
    [
      "cannot be read (a folder)",
      () => dir,
      /^The bundled spec .* cannot be read \(EISDIR: .*\): run `npm run build:spec`\.$/,
    ],
  ])("a file that %s is a SpecLoadError that names it and says what to run", (_what, file, message) => {
    const read = () => readBundledDocument(file(), REMEDY);
    expect(read).toThrow(SpecLoadError);
    expect(read).toThrow(message);
  });

  it.each([
    ["not JSON", "openapi: 3.1.0", /is not JSON \(.+\): run/],
    ["JSON with no paths", '{"openapi":"3.1.0"}', /is not an OpenAPI document \(it has no paths\): run/],
    ["JSON null", "null", /is not an OpenAPI document \(it has no paths\): run/],
  ])("a file of %s is a SpecLoadError that says so", async (what, text, message) => {
    const file = path.join(dir, `${what.replaceAll(" ", "-")}.json`);
    await writeFile(file, text);
    expect(() => readBundledDocument(file, REMEDY)).toThrow(SpecLoadError);
    expect(() => readBundledDocument(file, REMEDY)).toThrow(message);
  });
});
