import { readFileSync } from "node:fs";
import type { OpenApiDocument } from "./spec-operations.ts";

/** The bundled spec is missing, unreadable or not JSON; the message says which, and how to make it. */
export class SpecLoadError extends Error {
  override name = "SpecLoadError";
}

/**
 * Reads a bundled spec (JSON) as a document, with no validator built: what a process needs that only checks that the
 * spec is there or reads its operations. `remedy` says how to produce the file when it cannot be read.
 */
export function readBundledDocument(file: string, remedy: string): OpenApiDocument {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    throw new SpecLoadError(
      `The bundled spec ${file} ${code === "ENOENT" ? "is missing" : `cannot be read (${message})`}: ${remedy}`,
    );
  }
  let document: OpenApiDocument;
  try {
    document = JSON.parse(text) as OpenApiDocument;
  } catch (error) {
    throw new SpecLoadError(`The bundled spec ${file} is not JSON (${(error as Error).message}): ${remedy}`);
  }
  if (typeof document !== "object" || document === null || typeof document.paths !== "object") {
    throw new SpecLoadError(`The bundled spec ${file} is not an OpenAPI document (it has no paths): ${remedy}`);
  }
  return document;
}
