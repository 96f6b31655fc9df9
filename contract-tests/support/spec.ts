import { loadBundledSpec } from "../../lib/openapi/load.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { SettingError } from "./settings.ts";

/** What to do when the bundled spec cannot be read. */
export const SPEC_REMEDY = "run the suite with `file-library-contract`, or in the kit's repo with `npm run contract`, which bundles it first.";

/** The bundled spec every check validates against, from FILE_LIBRARY_SPEC (runSuite always sets it). */
export function loadSuiteSpec(specFile: string | undefined): OpenApiValidator {
  if (!specFile) throw new SettingError("FILE_LIBRARY_SPEC", `is not set: ${SPEC_REMEDY}`);
  return loadBundledSpec(specFile, SPEC_REMEDY);
}
