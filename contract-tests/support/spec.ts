import { loadBundledSpec, SpecLoadError } from "../../lib/openapi/load.ts";

/** What to do when the bundled spec cannot be read. */
export const SPEC_REMEDY = "run the suite with `file-library-contract`, or in the kit's repo with `npm run contract`, which bundles it first.";

/** The bundled spec every check validates against, from FILE_LIBRARY_SPEC (runSuite always sets it); the config and the global setup load it through here. */
export const spec = (() => {
  const file = process.env.FILE_LIBRARY_SPEC;
  if (!file) throw new SpecLoadError(`FILE_LIBRARY_SPEC is not set: ${SPEC_REMEDY}`);
  return loadBundledSpec(file, SPEC_REMEDY);
})();
