// covers: contract-tests/inputs/generators.ts
import { beforeAll, describe, expect, it } from "vitest";
import { wrongBodies, type WrongBody } from "../../contract-tests/inputs/generators.ts";
import { loadBundledSpec } from "../../lib/openapi/load.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";
import { ensureBundle } from "../support/sandbox.ts";

let spec: OpenApiValidator;
let bodies: WrongBody[];
beforeAll(() => {
  ensureBundle();
  spec = loadBundledSpec(bundledSpec.json, "run `npm run build:spec`.");
  bodies = wrongBodies(spec, spec.requestBodySchema("updateFile", "application/json"));
});

describe("the wrong update bodies the suite sends in every run, derived from the schema", () => {
  it("are every single-field wrong type, every wrong item type, and the whole-body cases: 20 in all", () => {
    const count = (kind: string) => bodies.filter((b) => b.kind === kind).length;
    expect(bodies).toHaveLength(20);
    expect(count("bodies not an object")).toBe(5);
    expect(count("bodies not JSON")).toBe(2);
    // null is "not given" for either field (docs/decisions.md, D05): never sent as a wrong type.
    expect(count("publicUrl of a wrong type")).toBe(4);
    expect(count("labels of a wrong type")).toBe(4);
    expect(count("labels items of a wrong type")).toBe(5);
  });

  it("cover each JSON type a field does not allow, a number as publicUrl among them; never null for a field, nor an extra member", () => {
    const json = bodies.filter((b): b is WrongBody & { json: unknown } => "json" in b).map((b) => b.json);
    expect(json).toEqual(
      expect.arrayContaining([
        { labels: true },
        { labels: 42 },
        { labels: "finance,q1" },
        { labels: { value: "x" } },
        { labels: [42] },
        { labels: [null] },
        { publicUrl: 42 },
        { publicUrl: ["x"] },
        null,
        ["x"],
      ]),
    );
    const objects = json.filter(
      (body): body is Record<string, unknown> => typeof body === "object" && body !== null && !Array.isArray(body),
    );
    expect(objects.filter((body) => body.labels === null || body.publicUrl === null)).toEqual([]);
    expect(
      objects.filter((body) => Object.keys(body).some((name) => name !== "labels" && name !== "publicUrl")),
    ).toEqual([]);
  });

  it("are every one refused by the spec's own validator, and are the same whatever the seed", () => {
    for (const body of bodies) {
      if ("raw" in body) {
        expect(() => JSON.parse(body.raw), body.breaks).toThrow();
        continue;
      }
      expect(spec.validateRequestBody("updateFile", "application/json", body.json).valid, body.breaks).toBe(false);
    }
    expect(wrongBodies(spec, spec.requestBodySchema("updateFile", "application/json"))).toEqual(bodies);
  });
});
