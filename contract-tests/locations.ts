import { fileURLToPath } from "node:url";

// Compiled, this module lands in the package's dist/, next to the shipped spec (the build keeps every output file
// that holds it at the top of dist/); as source, it sits in contract-tests/.
const compiled = import.meta.url.endsWith(".js");
const near = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** The bundled spec the checks validate against: shipped in the package, or built by `npm run build:spec` in the repo. */
export const defaultSpecFile = near(compiled ? "./openapi.json" : "../dist/openapi.json");

/** The contract package's manifest (its name and version). */
export const packageManifestFile = near(compiled ? "../package.json" : "./package.json");
