import { beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { breakingChanges } from "../scripts/lib/breaking-changes.ts";
import { runCommand } from "../lib/process.ts";
import { bin, bundledSpec, fromRoot, repoRoot } from "../scripts/lib/paths.ts";
import { ensureBundle } from "./support/sandbox.ts";

type Doc = Record<string, any>;
let current: Doc;
beforeAll(async () => {
  ensureBundle();
  current = JSON.parse(await readFile(bundledSpec.json, "utf8"));
});
const changed = (edit: (doc: Doc) => void): Doc => {
  const copy = structuredClone(current);
  edit(copy);
  return copy;
};
const FILE = "/studio/v1/library/files/{file_id}";

describe("breakingChanges", () => {
  it("finds none between a spec and itself", () => {
    expect(breakingChanges(current, current)).toEqual([]);
  });

  it.each([
    ["a removed operation", (d: Doc) => delete d.paths[FILE].put, `PUT ${FILE}: the operation was removed`],
    ["a removed status", (d: Doc) => delete d.paths[`${FILE}/download`].get.responses["422"], `GET ${FILE}/download: response 422 was removed`],
    ["a removed response field", (d: Doc) => delete d.components.schemas.FileMetadata.properties.publicUrl, `GET ${FILE} response 200: field publicUrl was removed`],
    ["a response field no longer required", (d: Doc) => (d.components.schemas.FileMetadata.required = ["id", "name", "size", "created_at"]), `GET ${FILE} response 200: labels is no longer always present`],
    ["a widened response type", (d: Doc) => (d.components.schemas.FileMetadata.properties.size.type = ["integer", "string"]), `GET ${FILE} response 200.size: may now be of type string`],
    ["a newly required request field", (d: Doc) => (d.components.schemas.UpdateFileRequest.required = ["labels"]), `PUT ${FILE} request body: labels is newly required`],
    ["a narrowed request type", (d: Doc) => (d.components.schemas.UpdateFileRequest.properties.labels.items.type = "integer"), `PUT ${FILE} request body.labels[]: no longer accepts type string`],
    ["a removed request field", (d: Doc) => delete d.components.schemas.UpdateFileRequest.properties.publicUrl, `PUT ${FILE} request body: field publicUrl was removed (it is now rejected)`],
    ["a dropped request media type", (d: Doc) => (d.paths[FILE].put.requestBody.content = { "text/plain": { schema: { type: "string" } } }), `PUT ${FILE}: request body application/json is no longer accepted`],
  ])("reports %s", (_, edit, expected) => {
    expect(breakingChanges(current, changed(edit))).toContain(expected);
  });

  it.each([
    ["a new optional response field", (d: Doc) => (d.components.schemas.FileMetadata.properties.checksum = { type: "string" })],
    ["a new optional request field", (d: Doc) => (d.components.schemas.UpdateFileRequest.properties.color = { type: "string" })],
    ["a new status", (d: Doc) => (d.paths[FILE].get.responses["409"] = { description: "Conflict." })],
    ["a new operation", (d: Doc) => (d.paths[FILE].delete = { operationId: "deleteFile", responses: { "200": { description: "Gone." } } })],
    ["a widened request type", (d: Doc) => (d.components.schemas.UpdateFileRequest.properties.labels.items.type = ["string", "integer"])],
  ])("does not report %s", (_, edit) => {
    expect(breakingChanges(current, changed(edit))).toEqual([]);
  });
});

describe("npm run check:breaking", { timeout: 60_000 }, () => {
  it("fails against a fixture base spec with known breaks, listing each", async () => {
    // The fixture is the current spec plus what the current one then seems to have removed or loosened.
    const base = changed((d) => {
      d.paths[FILE].delete = { operationId: "deleteFile", summary: "Delete a file", responses: { "200": { description: "Deleted." } } };
      d.components.schemas.FileMetadata.properties.checksum = { type: "string" };
      d.components.schemas.FileMetadata.required.push("checksum");
    });
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), "file-library-breaking-")), "base.json");
    await writeFile(file, JSON.stringify(base));
    const { code, output } = await runCommand(bin("tsx"), [fromRoot("scripts/check-breaking.ts"), "--base-spec", file], { cwd: repoRoot });
    expect(code, output).toBe(1);
    expect(output).toContain("breaking change(s) since");
    expect(output).toContain(`DELETE ${FILE}: the operation was removed`);
    expect(output).toContain(`GET ${FILE} response 200: field checksum was removed`);
    expect(output).toContain(`GET ${FILE} response 200: checksum is no longer always present`);
  });

  it("passes against the current commit", async () => {
    const { code, output } = await runCommand(bin("tsx"), [fromRoot("scripts/check-breaking.ts"), "--base", "HEAD"], { cwd: repoRoot });
    expect(code, output).toBe(0);
    expect(output).toContain("no breaking change since HEAD");
  });
});
