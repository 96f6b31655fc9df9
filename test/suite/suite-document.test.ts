import { describe, expect, it } from "vitest";
import { SettingError } from "../../contract-tests/run/settings.ts";
import { readSuiteDocument, SPEC_REMEDY } from "../../contract-tests/run/suite-document.ts";
import { SpecLoadError } from "../../lib/openapi/bundled-document.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";

describe("readSuiteDocument", () => {
  it("reads the run's bundled spec", () => {
    expect(readSuiteDocument(bundledSpec.json).paths).toHaveProperty(["/studio/v1/library/files/{file_id}"]);
  });

  it("without FILE_LIBRARY_SPEC is a SettingError that names it and says how the suite is run", () => {
    const read = () => readSuiteDocument(undefined);
    expect(read).toThrow(SettingError);
    expect(read).toThrow(`FILE_LIBRARY_SPEC is not set: ${SPEC_REMEDY}`);
  });

  it("with a file that is not there is a SpecLoadError with the same advice", () => {
    expect(() => readSuiteDocument("/nonexistent/openapi.json")).toThrow(SpecLoadError);
    expect(() => readSuiteDocument("/nonexistent/openapi.json")).toThrow(
      `The bundled spec /nonexistent/openapi.json is missing: ${SPEC_REMEDY}`,
    );
  });
});
