import { stat, utimes } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { bundleIsFresh, ensureBundledSpec } from "../../scripts/lib/build-spec.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";

describe("ensureBundledSpec (build-spec --if-stale, the tests' global setup)", { timeout: 60_000 }, () => {
  it("bundles when the bundle is older than the spec, and not again once it is fresh", async () => {
    await ensureBundledSpec();
    expect(await bundleIsFresh()).toBe(true);
    expect(await ensureBundledSpec()).toBeUndefined();
    // One of the two files from before the spec was written: the bundle is stale.
    const longAgo = new Date("2000-01-01T00:00:00Z");
    await utimes(bundledSpec.json, longAgo, longAgo);
    expect(await bundleIsFresh()).toBe(false);
    expect(await ensureBundledSpec()).toEqual({ ok: true, message: expect.stringContaining("Bundled dist/openapi.yaml and dist/openapi.json") });
    expect((await stat(bundledSpec.json)).mtimeMs).toBeGreaterThan(longAgo.getTime());
    expect(await bundleIsFresh()).toBe(true);
  });
});
