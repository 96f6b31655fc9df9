import { fileURLToPath } from "node:url";
import path from "node:path";

/** The repository root, whatever the current directory. */
export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** Absolute path of a file inside the repository. */
export const fromRoot = (...segments: string[]): string => path.join(repoRoot, ...segments);

/** The hand-written root of the spec. */
export const specRoot = fromRoot("openapi", "openapi.yaml");

/** The bundled spec, one self-contained file each. */
export const bundledSpec = { yaml: fromRoot("dist", "openapi.yaml"), json: fromRoot("dist", "openapi.json") };

/** The committed output of openapi-typescript. */
export const generatedTypes = fromRoot("src", "generated", "schema.d.ts");

/** An executable installed by npm into node_modules/.bin. */
export const bin = (name: string): string => fromRoot("node_modules", ".bin", name);
