import { _ } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import standaloneCodeModule from "ajv/dist/standalone/index.js";

// Both are CommonJS; under NodeNext their default exports arrive wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const standaloneCode = standaloneCodeModule as unknown as typeof standaloneCodeModule.default;

/**
 * The source of an ES module exporting one validation function per entry of `validators`, compiled ahead of time
 * with the same Ajv settings as the spec's validator: no code is generated at run time, which workerd and
 * strict CSPs forbid. `schemas` are registered first, for the validators' $refs. The module `require`s Ajv's
 * runtime helpers and ajv-formats' formats: a bundler resolves them.
 */
export function standaloneValidators(validators: Record<string, object>, schemas: object[] = []): string {
  const ajv = new Ajv2020({
    allErrors: true,
    strictSchema: false,
    strictTypes: false,
    code: { source: true, esm: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  for (const schema of schemas) ajv.addSchema(schema, undefined, undefined, false);
  for (const [name, schema] of Object.entries(validators)) ajv.addSchema(schema, name, undefined, false);
  return standaloneCode(ajv, Object.fromEntries(Object.keys(validators).map((name) => [name, name])));
}
