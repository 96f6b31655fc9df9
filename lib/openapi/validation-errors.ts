import type { ErrorObject } from "ajv";
import { unescapeSegment } from "./json-pointer.ts";

/** One schema violation: where in the data, and what is wrong. */
export interface ValidationIssue {
  /** Path into the data, such as ["labels", 0]. */
  path: Array<string | number>;
  message: string;
  /** The JSON Schema keyword that failed ("type", "required", ...). */
  keyword: string;
}

/** The outcome of validating a request or response against the spec. */
export interface ValidationResult {
  valid: boolean;
  /** What is wrong, one readable line each; empty when valid. */
  problems: string[];
  /** The same violations, structured. */
  issues: ValidationIssue[];
  /** The JSON pointer of the schema that applied, for reports. */
  schemaPointer?: string;
}

/** A validation result from Ajv's outcome: whether valid, and the errors as lines and as structured issues. */
export function resultOf(
  valid: boolean,
  ajvErrors: ErrorObject[] | null | undefined,
  schemaPointer?: string,
): ValidationResult {
  const errors = valid ? [] : relevantErrors(ajvErrors ?? []);
  return {
    valid,
    problems: describeErrors(errors),
    issues: errors.map(toIssue),
    ...(schemaPointer && { schemaPointer }),
  };
}

/** The result for a request body whose media type the operation does not document. */
export function unsupportedMediaType(mediaType: string, documented: readonly string[]): ValidationResult {
  const message = `content type ${mediaType || "(none)"} is not one of ${documented.join(", ")}`;
  return { valid: false, problems: [message], issues: [{ path: [], message, keyword: "contentType" }] };
}

/** Drops the summary errors of oneOf/anyOf, which only repeat their branches' errors. */
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const specific = errors.filter((error) => error.keyword !== "oneOf" && error.keyword !== "anyOf");
  return specific.length > 0 ? specific : errors;
}

function toIssue(error: ErrorObject): ValidationIssue {
  const path: Array<string | number> = error.instancePath
    .split("/")
    .slice(1)
    .map(unescapeSegment)
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
  if (error.keyword === "additionalProperties")
    path.push((error.params as { additionalProperty: string }).additionalProperty);
  if (error.keyword === "required") path.push((error.params as { missingProperty: string }).missingProperty);
  return { path, message: error.message ?? error.keyword, keyword: error.keyword };
}

/** Ajv errors as short readable lines. */
function describeErrors(errors: ErrorObject[]): string[] {
  const lines = errors.map((error) => {
    const where = error.instancePath === "" ? "body" : `body${error.instancePath}`;
    const extra =
      error.keyword === "additionalProperties"
        ? ` (${JSON.stringify((error.params as { additionalProperty: string }).additionalProperty)})`
        : error.keyword === "enum"
          ? ` (${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)})`
          : "";
    return `${where} ${error.message ?? error.keyword}${extra}`;
  });
  return [...new Set(lines)];
}
