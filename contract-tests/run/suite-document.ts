import { readBundledDocument } from "../../lib/openapi/bundled-document.ts";
import type { OpenApiDocument } from "../../lib/openapi/spec-operations.ts";
import { SettingError } from "./settings.ts";

/** What to do when the bundled spec cannot be read. */
export const SPEC_REMEDY =
  "run the suite with `file-library-contract`, or in the kit's repo with `npm run contract`, which bundles it first.";

/**
 * The bundled spec of the run, from FILE_LIBRARY_SPEC (runSuite always sets it), as a document; the engine builds
 * its validator from it (run/spec.ts).
 */
export function readSuiteDocument(specFile: string | undefined): OpenApiDocument {
  if (!specFile) throw new SettingError("FILE_LIBRARY_SPEC", `is not set: ${SPEC_REMEDY}`);
  return readBundledDocument(specFile, SPEC_REMEDY);
}
