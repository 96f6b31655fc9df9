import { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { readSuiteDocument } from "./suite-document.ts";

/** The bundled spec every check validates against, from FILE_LIBRARY_SPEC (runSuite always sets it). */
export function loadSuiteSpec(specFile: string | undefined): OpenApiValidator {
  return new OpenApiValidator(readSuiteDocument(specFile));
}
