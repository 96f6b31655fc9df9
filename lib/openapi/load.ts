import { readBundledDocument } from "./bundled-document.ts";
import { OpenApiValidator } from "./validator.ts";

/** Reads a bundled spec (JSON) into a validator; `remedy` says how to produce the file when it cannot be read (SpecLoadError). */
export function loadBundledSpec(file: string, remedy: string): OpenApiValidator {
  return new OpenApiValidator(readBundledDocument(file, remedy));
}
