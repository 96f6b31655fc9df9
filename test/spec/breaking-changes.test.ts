import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runCommand } from "../../lib/process.ts";
import { compareSpecs, formatChange } from "../../scripts/lib/breaking-changes.ts";
import { bundledSpec, fromRoot, repoRoot } from "../../scripts/lib/paths.ts";
import { ensureBundle } from "../support/sandbox.ts";

// Each case is one edit of the bundled spec, judged as the new spec against the bundle as it is, by the comparison
// `npm run check:breaking` makes and in the lines it prints: the verdict a reviewer would give, and the words of the
// reason that says why. The command itself runs in the cases of the release a change needs (below).
type Doc = Record<string, any>;
const FILE = "/studio/v1/library/files/{file_id}";
const DOWNLOAD = `${FILE}/download`;
const schemas = (d: Doc) => d.components.schemas;
const update = (d: Doc) => schemas(d).UpdateFileRequest.properties;
const metadata = (d: Doc) => schemas(d).FileMetadata;
const param = (d: Doc, p: Record<string, unknown>) =>
  (d.paths[FILE].get.parameters = [...(d.paths[FILE].get.parameters ?? []), p]);

type Case = [name: string, edit: (d: Doc) => void, verdict: "breaking" | "not breaking", reason: RegExp];
const CASES: Case[] = [
  // Requests: breaking when the new spec accepts less.
  [
    "publicUrl gets maxLength 10",
    (d) => (update(d).publicUrl.maxLength = 10),
    "breaking",
    /maxLength none became 10; the new spec rejects requests/,
  ],
  [
    "labels must be unique",
    (d) => (update(d).labels.uniqueItems = true),
    "breaking",
    /uniqueItems false became true; the new spec rejects requests/,
  ],
  [
    "a label must not be empty (not)",
    (d) => (update(d).labels.items.not = { const: "" }),
    "breaking",
    /not "none" became \{"const":""\}/,
  ],
  ["publicUrl gets minLength 0 (what it had)", (d) => (update(d).publicUrl.minLength = 0), "not breaking", /^$/],
  [
    "a label must match exactly one of two overlapping branches",
    (d) => (update(d).labels.items = { type: "string", oneOf: [{ type: "string" }, { maxLength: 3 }] }),
    "breaking",
    /oneOf was added \(2 branches\); the new spec rejects requests/,
  ],
  [
    "a label may be a string or an integer (oneOf)",
    (d) => (update(d).labels.items = { oneOf: [{ type: "string" }, { type: "integer" }] }),
    "not breaking",
    /the new spec accepts more requests/,
  ],
  [
    "publicUrl gets format email",
    (d) => (update(d).publicUrl.format = "email"),
    "breaking",
    /format "none" became "email"/,
  ],
  [
    "publicUrl gets a pattern",
    (d) => (update(d).publicUrl.pattern = "^https://"),
    "breaking",
    /pattern "none" became "\^https:\/\/"/,
  ],
  // 2.0.0 dropped it (docs/decisions.md, D05): a client sending www.example.com would be refused again.
  [
    "publicUrl gets format uri back",
    (d) => (update(d).publicUrl.format = "uri"),
    "breaking",
    /format "none" became "uri"; the new spec rejects requests/,
  ],
  // A pattern with an optional part made required matches a subset of what it matched: proven narrower, one way only.
  [
    "the signed URL must be https: its pattern's optional s becomes required",
    (d) => (schemas(d).SignedDownloadUrl.pattern = "^[Hh][Tt][Tt][Pp][Ss]://"),
    "not breaking",
    /\(an optional part became required\); the answers the new spec allows are a subset/,
  ],
  [
    "created_at's offset may leave out its colon again",
    (d) => (metadata(d).properties.created_at.pattern = "(?:[Zz]|[+-]00:?00)$"),
    "breaking",
    /pattern "\(\?:\[Zz\]\|\[\+-\]00:00\)\$" became "\(\?:\[Zz\]\|\[\+-\]00:\?00\)\$"; the new spec may answer/,
  ],
  ["labels get maxItems 5", (d) => (update(d).labels.maxItems = 5), "breaking", /maxItems none became 5/],
  ["a label gets minLength 1", (d) => (update(d).labels.items.minLength = 1), "breaking", /minLength none became 1/],
  [
    "a label gets maxLength 100",
    (d) => (update(d).labels.items.maxLength = 100),
    "breaking",
    /maxLength none became 100/,
  ],
  ["labels get an enum", (d) => (update(d).labels.items.enum = ["a", "b"]), "breaking", /enum "none" became/],
  [
    "labels become required",
    (d) => (schemas(d).UpdateFileRequest.required = ["labels"]),
    "breaking",
    /labels became required/,
  ],
  [
    "labels change type from array to string",
    (d) => (update(d).labels.type = "string"),
    "breaking",
    /type \["array","null"\] became "string"/,
  ],
  [
    "a label may also be null",
    (d) => (update(d).labels.items.type = ["string", "null"]),
    "not breaking",
    /the new spec accepts more requests/,
  ],
  [
    "publicUrl may no longer be null",
    (d) => (update(d).publicUrl.type = "string"),
    "breaking",
    /type \["string","null"\] became "string"; the new spec rejects requests/,
  ],
  // The body is open: a property it no longer names takes any value, and one it names anew is narrowed to its schema.
  [
    "publicUrl is removed from the open body",
    (d) => delete update(d).publicUrl,
    "not breaking",
    /property publicUrl was removed; the new spec accepts more/,
  ],
  [
    "an optional string field is added to the open body",
    (d) => (update(d).note = { type: "string" }),
    "breaking",
    /property note was added; the new spec rejects requests/,
  ],
  [
    "the body refuses unknown fields again",
    (d) => (schemas(d).UpdateFileRequest.additionalProperties = false),
    "breaking",
    /additionalProperties true became false; the new spec rejects requests/,
  ],
  [
    "the body no longer needs to be sent",
    (d) => (d.paths[FILE].put.requestBody.required = false),
    "not breaking",
    /the request body became optional/,
  ],
  [
    "the body is no longer accepted as JSON",
    (d) => (d.paths[FILE].put.requestBody.content = { "text/plain": { schema: { type: "string" } } }),
    "breaking",
    /no longer accepted as application\/json/,
  ],
  [
    "the body is also accepted as form data",
    (d) =>
      (d.paths[FILE].put.requestBody.content["application/x-www-form-urlencoded"] = { schema: { type: "object" } }),
    "not breaking",
    /now also accepted as application\/x-www-form-urlencoded/,
  ],
  [
    "a required query parameter is added",
    (d) => param(d, { name: "workspace", in: "query", required: true, schema: { type: "string" } }),
    "breaking",
    /parameter query workspace is new and required/,
  ],
  [
    "an optional query parameter is added",
    (d) => param(d, { name: "fields", in: "query", schema: { type: "string" } }),
    "not breaking",
    /parameter query fields is new and optional/,
  ],
  [
    "a required header is added",
    (d) => param(d, { name: "X-Workspace", in: "header", required: true, schema: { type: "string" } }),
    "breaking",
    /parameter header x-workspace is new and required/,
  ],
  [
    "the file id needs 5 characters",
    (d) => (d.components.parameters.FileId.schema.minLength = 5),
    "breaking",
    /minLength 1 became 5/,
  ],
  [
    "the file id gets maxLength 64",
    (d) => (d.components.parameters.FileId.schema.maxLength = 64),
    "breaking",
    /maxLength none became 64/,
  ],
  [
    "the file id may be empty",
    (d) => delete d.components.parameters.FileId.schema.minLength,
    "not breaking",
    /minLength 1 became none/,
  ],
  [
    "another auth scheme is required",
    (d) => (
      (d.components.securitySchemes.apiKey = { type: "apiKey", in: "header", name: "X-Api-Key" }),
      (d.security = [{ apiKey: [] }])
    ),
    "breaking",
    /security requirements changed/,
  ],
  [
    "the bearer scheme becomes basic",
    (d) => (d.components.securitySchemes.bearerAuth.scheme = "basic"),
    "breaking",
    /security scheme bearerAuth changed/,
  ],
  [
    "an operation needs no auth any more",
    (d) => (d.paths[FILE].get.security = []),
    "not breaking",
    /every client that passed still passes/,
  ],
  ["the update is removed", (d) => delete d.paths[FILE].put, "breaking", /the operation was removed/],
  [
    "a delete operation is added",
    (d) => (d.paths[FILE].delete = { operationId: "deleteFile", responses: { "204": { description: "gone" } } }),
    "not breaking",
    /a new operation/,
  ],
  // Paths match by shape, components through their references: renames that leave the wire alone change nothing.
  [
    "the path parameter is renamed from file_id to id",
    (d) => {
      const rename = (p: string) => p.replace("{file_id}", "{id}");
      d.paths = Object.fromEntries(Object.entries(d.paths).map(([p, item]) => [rename(p), item]));
      d.components.parameters.FileId.name = "id";
    },
    "not breaking",
    /^$/,
  ],
  [
    "FileMetadata is renamed to FileInfo",
    (d) => {
      schemas(d).FileInfo = schemas(d).FileMetadata;
      delete schemas(d).FileMetadata;
      d.paths[FILE].get.responses["200"].content["application/json"].schema.$ref = "#/components/schemas/FileInfo";
    },
    "not breaking",
    /^$/,
  ],
  ["a description changes", (d) => (metadata(d).description = "Other words."), "not breaking", /^$/],
  // Responses: breaking when the new spec may send more.
  [
    "size may also be a string",
    (d) => (metadata(d).properties.size.type = ["integer", "string"]),
    "breaking",
    /type "integer" became \["integer","string"\]; the new spec may answer/,
  ],
  [
    "labels are no longer required in the metadata",
    (d) => (metadata(d).required = ["id", "name", "size", "created_at"]),
    "breaking",
    /labels is no longer required/,
  ],
  [
    "size may be negative",
    (d) => delete metadata(d).properties.size.minimum,
    "breaking",
    /the lower bound >= 0 became none/,
  ],
  [
    "size's minimum 0 becomes exclusiveMinimum -1 (the same integers)",
    (d) => {
      delete metadata(d).properties.size.minimum;
      metadata(d).properties.size.exclusiveMinimum = -1;
    },
    "not breaking",
    /^$/,
  ],
  [
    "size becomes exclusiveMinimum 0 (no empty files)",
    (d) => {
      delete metadata(d).properties.size.minimum;
      metadata(d).properties.size.exclusiveMinimum = 0;
    },
    "not breaking",
    /the lower bound >= 0 became >= 1; the answers the new spec allows are a subset/,
  ],
  [
    "publicUrl is no longer described in the metadata",
    (d) => delete metadata(d).properties.publicUrl,
    "breaking",
    /property publicUrl was removed; the new spec may answer/,
  ],
  [
    "the metadata's publicUrl may no longer be null",
    (d) => (metadata(d).properties.publicUrl.type = "string"),
    "not breaking",
    /the answers the new spec allows are a subset/,
  ],
  [
    "the metadata gets an optional checksum",
    (d) => (metadata(d).properties.checksum = { type: "string" }),
    "not breaking",
    /property checksum was added; the answers the new spec allows are a subset/,
  ],
  [
    "names get maxLength 255",
    (d) => (metadata(d).properties.name.maxLength = 255),
    "not breaking",
    /maxLength none became 255/,
  ],
  [
    "getFile may answer 404",
    (d) => (d.paths[FILE].get.responses["404"] = { description: "not found" }),
    "breaking",
    /response 404 is new/,
  ],
  [
    "the download no longer documents 422",
    (d) => delete d.paths[DOWNLOAD].get.responses["422"],
    "not breaking",
    /response 422 is no longer documented: the server sends less/,
  ],
  [
    "the download no longer comes as text/plain",
    (d) => delete d.paths[DOWNLOAD].get.responses["200"].content["text/plain"],
    "breaking",
    /response 200 no longer comes as text\/plain: clients that ask for it get another form or 406/,
  ],
  [
    "the metadata may come as XML",
    (d) => (d.paths[FILE].get.responses["200"].content["application/xml"] = { schema: { type: "string" } }),
    "breaking",
    /may now come as application\/xml/,
  ],
  [
    "an error code may only be an integer",
    (d) => (schemas(d).ErrorBody.properties.code.type = "integer"),
    "not breaking",
    /the answers the new spec allows are a subset/,
  ],
  [
    "an error's detail may also be a number",
    (d) => schemas(d).ErrorBody.properties.detail.oneOf.push({ type: "number" }),
    "breaking",
    /oneOf branch 2 was added/,
  ],
  [
    "the written-out server errors are folded back into 5XX",
    (d) => {
      const responses = d.paths[FILE].get.responses;
      responses["5XX"] = responses["500"];
      for (const status of Object.keys(responses)) if (/^5\d\d$/.test(status)) delete responses[status];
    },
    "breaking",
    /response 5XX is new/,
  ],
  [
    "getFile no longer documents 507",
    (d) => delete d.paths[FILE].get.responses["507"],
    "not breaking",
    /response 507 is no longer documented/,
  ],
  [
    "a default answer is added",
    (d) => (d.paths[FILE].get.responses.default = { description: "anything" }),
    "breaking",
    /response default is new/,
  ],
];

let scratch: string;
let base: Doc;
beforeAll(async () => {
  ensureBundle();
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-breaking-"));
  base = JSON.parse(await readFile(bundledSpec.json, "utf8"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Runs check:breaking with the bundle as the old spec and `doc` as the new one. */
async function checkBreaking(name: string, doc: Doc) {
  const file = path.join(scratch, `${name.replace(/\W+/g, "-")}.json`);
  await writeFile(file, JSON.stringify(doc));
  const { code, output } = await runCommand(
    process.execPath,
    ["--import", "tsx", fromRoot("scripts/check-breaking.ts"), "--base-spec", bundledSpec.json, "--spec", file],
    {
      cwd: repoRoot,
      env: { ...process.env, REDOCLY_TELEMETRY: "off" },
    },
  );
  const lines = output.split("\n").filter((line) => /^(BREAKING|ADDITION|COMPATIBLE) /.test(line));
  return { code, output, lines, breaking: lines.filter((line) => line.startsWith("BREAKING ")) };
}

describe(`check:breaking judges ${CASES.length} one-edit changes of the bundled spec by direction`, {
  timeout: 120_000,
}, () => {
  it.each(CASES.map(([name, ...rest]) => [`${name}: ${rest[1]}`, name, ...rest] as const))(
    "%s",
    (_, _name, edit, verdict, reason) => {
      const doc = structuredClone(base);
      edit(doc);
      const lines = compareSpecs(base, doc).map(formatChange);
      const breaking = lines.filter((line) => line.startsWith("BREAKING "));
      const output = lines.join("\n");
      if (verdict === "breaking") {
        expect(breaking.length, output).toBeGreaterThan(0);
        expect(
          breaking.some((line) => reason.test(line)),
          output,
        ).toBe(true);
        // Each names the operation and the JSON pointer in both specs.
        expect(breaking[0], output).toMatch(
          /^BREAKING (GET|PUT|DELETE) \/studio\S* \(\w+\) \| old (#\/\S+|-) \| new (#\/\S+|-) \| /,
        );
      } else {
        expect(breaking, output).toEqual([]);
        if (reason.source === "^$") expect(lines, output).toEqual([]);
        else
          expect(
            lines.some((line) => reason.test(line)),
            output,
          ).toBe(true);
      }
    },
  );

  it("prints the release a change needs, and fails unless info.version follows it", async () => {
    const [major, minor, patch] = String(base.info.version).split(".").map(Number) as [number, number, number];
    const breaking = structuredClone(base);
    delete breaking.paths[FILE].put;
    const same = await checkBreaking("major-same-version", breaking);
    expect(same.code).toBe(1);
    // The command prints each change as the judged cases above read it.
    expect(same.lines).toEqual(compareSpecs(base, breaking).map(formatChange));
    expect(same.breaking[0]).toMatch(
      /^BREAKING PUT \/studio\/v1\/library\/files\/\{file_id\} \(updateFile\) \| old #\/paths\/\S+ \| new - \| .*the operation was removed/,
    );
    // One verdict line: what the change needs, and that the version does not say it.
    expect(same.output).toContain(
      `: the release needs a major version bump, and info.version is ${base.info.version}, after ${base.info.version}: set a higher major version.`,
    );
    expect(same.output.match(/needs a/g)).toHaveLength(1);
    breaking.info.version = `${major + 1}.0.0`;
    const bumped = await checkBreaking("major-bumped", breaking);
    expect(bumped.code, bumped.output).toBe(0);
    expect(bumped.output).toContain(
      `: the release needs a major version bump; info.version ${base.info.version} → ${major + 1}.0.0 follows it.`,
    );

    const added = structuredClone(base);
    added.paths[FILE].delete = { operationId: "deleteFile", responses: { "204": { description: "gone" } } };
    added.info.version = `${major}.${minor}.${patch + 1}`;
    const patchOnly = await checkBreaking("minor-as-patch", added);
    expect(patchOnly.code).toBe(1);
    expect(patchOnly.output).toMatch(/needs a minor version bump/);
    added.info.version = `${major}.${minor + 1}.0`;
    expect((await checkBreaking("minor-bumped", added)).code).toBe(0);

    const unchanged = await checkBreaking("unchanged", structuredClone(base));
    expect(unchanged.code, unchanged.output).toBe(0);
    // No change needs no release: said once, with no bump named and no "1.2.5 → 1.2.5".
    expect(unchanged.output.trim()).toBe(
      `check:breaking: no change since ${bundledSpec.json}: no new version needed (info.version ${base.info.version}; ${base.info.version} there).`,
    );

    const lowered = structuredClone(base);
    lowered.info.version = "0.0.1";
    const down = await checkBreaking("lowered", lowered);
    expect(down.code).toBe(1);
    expect(down.output).toContain(`but info.version went down from ${base.info.version} to 0.0.1`);
  });

  it("the spec's info.version follows what its changes since the base need (the newest tag, else origin/main)", async () => {
    const { code, output } = await runCommand(
      process.execPath,
      ["--import", "tsx", fromRoot("scripts/check-breaking.ts")],
      { cwd: repoRoot, env: { ...process.env, REDOCLY_TELEMETRY: "off" } },
    );
    // A clone has origin/main (CI's does); a repository with neither a tag nor a remote has nothing to compare with.
    if (code === 2 && /no tag and no origin\/main/.test(output) && process.env.CI !== "true") {
      console.warn(
        "test/spec/breaking-changes.test.ts: the version check skipped: no tag and no origin/main in this repository.",
      );
      return;
    }
    expect(code, output).toBe(0);
    expect(output).toMatch(/follows it|no new version needed/);
  });
});
