import { beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import SwaggerParser from "@apidevtools/swagger-parser";
import spectralCore from "@stoplight/spectral-core";
import spectralParsers from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { bundledSpec } from "../../scripts/lib/paths.ts";
import { ensureBundle } from "../support/sandbox.ts";

// What other teams run on the published bundle. Each tool is a pinned devDependency.

/** Rules of spectral:oas turned off, each with its reason. */
const SPECTRAL_RULES_OFF = {
  // The service description names no owner or support contact; the spec does not make one up.
  "info-contact": "the service description names no contact",
};

// Generators have a test each (test/consumers/generator-*.test.ts), Specmatic too (test/consumers/specmatic.test.ts).
beforeAll(() => ensureBundle());

describe("the bundled spec, in the tools other teams use", { timeout: 120_000 }, () => {
  it("@apidevtools/swagger-parser (what `swagger-cli validate` runs) validates it", async () => {
    const api = await SwaggerParser.validate(bundledSpec.json);
    expect(api.info.title).toBe("File Library API");
  });

  it("Spectral's spectral:oas ruleset finds no error and no warning", async () => {
    const { Spectral, Document } = spectralCore;
    const spectral = new Spectral();
    spectral.setRuleset({
      extends: [oas],
      rules: Object.fromEntries(Object.keys(SPECTRAL_RULES_OFF).map((rule) => [rule, "off"])),
    } as never);
    const results = await spectral.run(
      new Document(await readFile(bundledSpec.yaml, "utf8"), spectralParsers.Yaml, bundledSpec.yaml),
    );
    // Severity 0 is an error, 1 a warning; infos and hints are advice.
    const problems = results
      .filter((r) => r.severity <= 1)
      .map((r) => `${r.code} at ${r.path.join(".")}: ${r.message}`);
    expect(problems).toEqual([]);
  });
});
