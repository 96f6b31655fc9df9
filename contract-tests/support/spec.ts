import { existsSync } from "node:fs";
import { OpenApiValidator } from "./openapi-validator.ts";

/** Where the bundled spec is read from: runSuite always sets FILE_LIBRARY_SPEC (the shipped or the repo's bundle). */
export const specFile = process.env.FILE_LIBRARY_SPEC || missing("is not set (FILE_LIBRARY_SPEC)");
// Checked before the read, so that a missing bundle is one clear line, not an ENOENT from deep inside.
if (!existsSync(specFile)) missing(`${specFile} is missing`);

function missing(what: string): never {
  throw new Error(`The bundled spec ${what}: run the suite with \`file-library-contract\`, or in the kit's repo with \`npm run contract\`, which bundles it first.`);
}

/** The bundled spec every check validates against; the config (its reporter) and the global setup load it through here. */
export const spec = OpenApiValidator.fromFile(specFile);
