import type { OpenApiDocument } from "../lib/openapi/spec-operations.ts";
import { OpenApiValidator } from "../lib/openapi/validator.ts";
import type { ServiceSpec } from "./core/service.ts";
// The bundled spec as a module, not a file: the fake runs where there is no file system (browsers, workers).
// `npm run build:spec` writes it. The testing entry's build swaps this module for one with the spec inlined and its
// request bodies' validators compiled ahead of time (scripts/lib/build-client.ts): workerd forbids generating code.
import document from "../dist/openapi.json" with { type: "json" };

let spec: ServiceSpec | undefined;

/** The spec as the fake's service reads it, made once, on first use. */
export const fakeSpec = (): ServiceSpec => (spec ??= new OpenApiValidator(document as unknown as OpenApiDocument));
