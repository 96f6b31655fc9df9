import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import schema from "./fixture-schema.json" with { type: "json" };

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
let validate: ValidateFunction | undefined;

/**
 * The problems of a fixture list by fixture-schema.json (none when it is valid), compiled on first use. The testing
 * entry's build swaps this module for one compiled ahead of time (workerd forbids generating code at run time).
 */
export function fixtureProblems(data: unknown): ErrorObject[] {
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true });
    addFormats(ajv);
    validate = ajv.compile(schema);
  }
  return validate(data) ? [] : (validate.errors ?? []);
}
