import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { checkDrift } from "../../scripts/lib/drift.ts";
import { lintSpec } from "../../scripts/lib/redocly.ts";
import { fromRoot, generatedTypes } from "../../scripts/lib/paths.ts";

// Each test mutates its own copy of openapi/ and redocly.yaml, then runs the real tool on it.
let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-spec-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function specCopy(name: string, mutate: Record<string, (text: string) => string>): Promise<string> {
  const dir = path.join(scratch, name);
  await cp(fromRoot("openapi"), path.join(dir, "openapi"), { recursive: true });
  await cp(fromRoot("redocly.yaml"), path.join(dir, "redocly.yaml"));
  for (const [file, change] of Object.entries(mutate)) {
    const target = path.join(dir, file);
    const before = await readFile(target, "utf8");
    const after = change(before);
    expect(after, `the mutation of ${file} changed nothing`).not.toBe(before);
    await writeFile(target, after);
  }
  return dir;
}

describe("check:generated", () => {
  it("passes for the committed types", async () => {
    expect(await checkDrift(generatedTypes, "schema.d.ts")).toMatchObject({ ok: true });
  });

  it("fails when the generated file was edited by hand, though the spec is unchanged: its recorded hash no longer matches", async () => {
    const edited = path.join(scratch, "hand-edited.d.ts");
    const text = await readFile(generatedTypes, "utf8");
    await writeFile(edited, text.replace("size: number;", "size: number | string;"));
    const result = await checkDrift(edited, "hand-edited.d.ts");
    expect(result.ok).toBe(false);
    expect(result.message).toContain("hand-edited.d.ts is out of date");
    expect(result.message).toContain("Run `npm run generate`");
  });

  it("fails when a schema field changed without regenerating, and says what to run", async () => {
    const dir = await specCopy("drift", {
      "openapi/components/schemas/FileMetadata.yaml": (t) =>
        t.replace("  size:\n    type: integer", "  size:\n    type: string"),
    });
    const result = await checkDrift(
      generatedTypes,
      "src/generated/schema.d.ts",
      path.join(dir, "openapi/openapi.yaml"),
    );
    expect(result.ok).toBe(false);
    expect(result.message).toContain("src/generated/schema.d.ts is out of date");
    expect(result.message).toContain("size: string");
    expect(result.message).toContain("Run `npm run generate`");
  });
});

describe("lint:spec", () => {
  const requestIdRenamed = (t: string) => t.replace("X-Request-Id:", "X-Trace-Id:");
  const REQUEST_ID_MISSING = 'Response object must contain a "X-Request-Id" header';
  // Each case breaks a copy of the spec (or of redocly.yaml) in one way, and names what the lint must say.
  const cases: Array<[string, Record<string, (text: string) => string>, string | RegExp]> = [
    [
      "an operation does not document 422 for an unknown id",
      {
        "openapi/paths/studio_v1_library_files_{file_id}_download.yaml": (t) =>
          t.replace("    '422':\n      $ref: ../components/responses/UnknownFile.yaml\n", ""),
      },
      "rule/unknown-id-is-422",
    ],
    [
      "an operation leaves out one registered server error",
      {
        "openapi/paths/studio_v1_library_files_{file_id}_download.yaml": (t) =>
          t.replace("    '507':\n      $ref: ../components/responses/ServerError.yaml\n", ""),
      },
      "rule/server-errors-documented",
    ],
    [
      "an operation documents a status range again (tools misread 5XX)",
      {
        "openapi/paths/studio_v1_library_files_{file_id}_download.yaml": (t) =>
          t.replace(
            "    '500':\n      $ref: ../components/responses/ServerError.yaml\n",
            "    5XX:\n      $ref: ../components/responses/ServerError.yaml\n    '500':\n      $ref: ../components/responses/ServerError.yaml\n",
          ),
      },
      "rule/no-status-ranges",
    ],
    [
      "a parameter example does not match its schema",
      { "openapi/components/parameters/FileId.yaml": (t) => t.replace("    value: file_missing", "    value: ''") },
      "no-invalid-parameter-examples",
    ],
    [
      "a 2xx answer does not document X-Request-Id",
      { "openapi/paths/studio_v1_library_files_{file_id}_download.yaml": requestIdRenamed },
      REQUEST_ID_MISSING,
    ],
    [
      "a 4xx answer does not document X-Request-Id",
      { "openapi/components/responses/UnknownFile.yaml": requestIdRenamed },
      REQUEST_ID_MISSING,
    ],
    [
      "a 5xx answer does not document X-Request-Id",
      { "openapi/components/responses/ServerError.yaml": requestIdRenamed },
      REQUEST_ID_MISSING,
    ],
    [
      "an example does not match its schema",
      { "openapi/paths/studio_v1_library_files_{file_id}.yaml": (t) => t.replace("size: 482113", "size: big") },
      "no-invalid-media-type-examples",
    ],
    [
      "a rule only warns",
      {
        "redocly.yaml": (t) =>
          t.replace("  operation-singular-tag: error", "  operation-singular-tag: error\n  tags-alphabetical: warn"),
        "openapi/openapi.yaml": (t) =>
          t.replace("tags:\n  - name: Files", "tags:\n  - name: Zeta\n    description: Unused here.\n  - name: Files"),
      },
      /warning/i,
    ],
  ];

  it.each(cases)("fails when %s", async (what, mutate, says) => {
    const dir = await specCopy(what.replace(/\W+/g, "-"), mutate);
    const { ok, output } = await lintSpec({ cwd: dir });
    expect(output).toMatch(says);
    expect(ok).toBe(false);
  });
});
