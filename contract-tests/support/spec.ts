import { OpenApiValidator } from "./openapi-validator.ts";

/** Where the bundled spec is read from: runSuite always sets FILE_LIBRARY_SPEC (the shipped or the repo's bundle). */
export const specFile = process.env.FILE_LIBRARY_SPEC || fail();

function fail(): never {
  throw new Error("FILE_LIBRARY_SPEC is not set: run the suite with `file-library-contract` (or `npm run contract` in the kit's repo), which sets it.");
}

/** The bundled spec every check validates against. */
export const spec = OpenApiValidator.fromFile(specFile);
