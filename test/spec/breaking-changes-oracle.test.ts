import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { check_compat, initSync } from "jsoncompat";
import { compareSpecs } from "../../scripts/lib/breaking-changes.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";
import { ensureBundle } from "../support/sandbox.ts";
import { BODY, schemaEdits, type SchemaEdit } from "../support/schema-edits.ts";

// check:breaking's schema verdicts against an independent checker: jsoncompat (JSON Schema 2020-12, by serializer and
// deserializer roles), on every one-keyword edit of the two body schemas in test/support/schema-edits.ts. A request
// body breaks clients when the server (its deserializer) accepts less; an answer breaks them when the server (its
// serializer) may send more. jsoncompat answers yes or no only, with no pointer or reason, so it checks our comparator
// rather than replacing it (docs/decisions.md, D31).

/** Where jsoncompat is wrong, checked by hand; pinned so that a fix upstream fails this test. */
const ORACLE_MISSES: Record<string, string> = {
  "response: id anyOf string or integer":
    "jsoncompat 0.4.2 reads minLength beside anyOf as type string, and so misses that the id may now be an integer",
  // The update body is open since 2.0.0 (docs/decisions.md, D05): `{"etag": 5}` was valid, and is refused now.
  "request: an optional field is added":
    "jsoncompat 0.4.2 misses that a property named anew in an open object narrows it: the member took any value before",
  "request: unknown fields must be strings":
    "jsoncompat 0.4.2 misses that additionalProperties with a schema narrows an open object: other members took any value before",
};

/**
 * Where check:breaking says breaking and a finer analysis proves otherwise: sound, never a missed break, but a false
 * alarm a reviewer overrules. Pinned, so that a sharper comparator shows.
 */
const CONSERVATIVE: Record<string, string> = {
  "request: a label anyOf short or long":
    "the branches keep every old value only together (maxLength 3 or minLength 4); each branch is judged alone",
};

ensureBundle();
initSync({
  module: readFileSync(
    path.join(path.dirname(createRequire(import.meta.url).resolve("jsoncompat")), "jsoncompat_wasm_bg.wasm"),
  ),
});
const base = JSON.parse(readFileSync(bundledSpec.json, "utf8"));

type Doc = Record<string, any>;
/** A component schema with its $refs inlined and its annotations dropped, as jsoncompat takes it. */
function standalone(doc: Doc, name: string): string {
  const schemas = doc.components.schemas;
  const inline = (schema: unknown): unknown =>
    JSON.parse(JSON.stringify(schema), (key, value) =>
      ["description", "title", "examples"].includes(key)
        ? undefined
        : value?.$ref
          ? inline(schemas[String(value.$ref).split("/").pop()!])
          : value,
    );
  return JSON.stringify(inline(schemas[name]));
}

function verdicts(edit: SchemaEdit): { ours: boolean; theirs: boolean; reasons: string[] } {
  const next = structuredClone(base);
  edit.apply(next);
  const breaking = compareSpecs(base, next).filter((c) => c.kind === "breaking");
  const role = edit.side === "request" ? "deserializer" : "serializer";
  const theirs = !check_compat(standalone(base, BODY[edit.side]), standalone(next, BODY[edit.side]), role);
  return { ours: breaking.length > 0, theirs, reasons: breaking.map((c) => c.reason) };
}

const edits = schemaEdits();
describe(`check:breaking agrees with jsoncompat on ${edits.length} one-keyword edits of the body schemas`, () => {
  it.each(edits.map((e) => [e.name, e] as const))("%s", (_name, edit) => {
    const { ours, theirs, reasons } = verdicts(edit);
    const miss = ORACLE_MISSES[edit.name];
    if (miss) {
      expect(ours, `jsoncompat now agrees (${miss}): fixed upstream? Remove the pin`).not.toBe(theirs);
      return;
    }
    const conservative = CONSERVATIVE[edit.name];
    if (conservative) {
      expect({ ours, theirs }, `no longer a false alarm (${conservative}): remove the pin`).toEqual({
        ours: true,
        theirs: false,
      });
      return;
    }
    if (ours && !theirs && edit.opaque) return; // a keyword judged both ways on purpose: conservative, never unsound
    expect({ breaking: ours, reasons }, `jsoncompat says ${theirs ? "breaking" : "compatible"}`).toMatchObject({
      breaking: theirs,
    });
  });

  it("covers both bodies and every kind of keyword, and the pins are all still in the catalogue", () => {
    expect(new Set(edits.map((e) => e.side))).toEqual(new Set(["request", "response"]));
    expect(edits.length).toBeGreaterThanOrEqual(120);
    for (const name of [...Object.keys(ORACLE_MISSES), ...Object.keys(CONSERVATIVE)])
      expect(edits.map((e) => e.name)).toContain(name);
  });
});
