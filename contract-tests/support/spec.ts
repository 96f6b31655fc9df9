import { bundledSpec } from "../../scripts/lib/paths.ts";
import { OpenApiValidator } from "./openapi-validator.ts";

/** Where the bundled spec is read from: FILE_LIBRARY_SPEC, or dist/openapi.json (npm run build:spec). */
export const specFile = process.env.FILE_LIBRARY_SPEC ?? bundledSpec.json;

/** The bundled spec every check validates against. */
export const spec = OpenApiValidator.fromFile(specFile);
