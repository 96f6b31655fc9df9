import { readFile, stat, utimes, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { ensureBundledSpec } from "../../scripts/lib/build-spec.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";

describe("ensureBundledSpec (build-spec --if-stale, the tests' global setup)", { timeout: 60_000 }, () => {
  it("bundles when the bundle is not the one its inputs make, and not again once it is, whatever the files' times", async () => {
    await ensureBundledSpec();
    expect(await ensureBundledSpec()).toBeUndefined();
    // An old time alone changes nothing: the proof is the content (a checkout sets times as it likes).
    const longAgo = new Date("2000-01-01T00:00:00Z");
    await utimes(bundledSpec.json, longAgo, longAgo);
    expect(await ensureBundledSpec()).toBeUndefined();
    // A bundle changed since it was made is made again.
    const bundled = await readFile(bundledSpec.json, "utf8");
    await writeFile(bundledSpec.json, bundled.replace('"openapi"', '"openapi-edited"'));
    expect(await ensureBundledSpec()).toEqual({ ok: true, message: expect.stringContaining("Bundled dist/openapi.yaml and dist/openapi.json") });
    expect(await readFile(bundledSpec.json, "utf8")).toBe(bundled);
    expect((await stat(bundledSpec.json)).mtimeMs).toBeGreaterThan(longAgo.getTime());
    expect(await ensureBundledSpec()).toBeUndefined();
  });
});
