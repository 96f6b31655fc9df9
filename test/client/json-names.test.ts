import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { repeatedMemberName } from "../../src/json-names.ts";

describe("repeatedMemberName", () => {
  it.each([
    ['{"a":1,"b":2}', undefined],
    ['{"a":1,"a":2}', "a"],
    // Names are compared as JSON reads them, escapes decoded.
    ['{"size":1,"\\u0073ize":2}', "size"],
    // Each object has names of its own; arrays hold none.
    ['{"a":{"a":1},"b":[{"a":1},{"a":2}]}', undefined],
    ['[{"x":1,"y":2,"x":3}]', "x"],
    ['{"a":{"b":1,"b":2}}', "b"],
    // Brackets, colons and quotes inside strings are text.
    ['{"k":"{\\"k\\":1}","v":"a:b","w":"[\\"]"}', undefined],
    ['"just a string"', undefined],
    ["42", undefined],
  ])("%s: %s", (text, expected) => {
    expect(repeatedMemberName(text)).toBe(expected);
  });

  it("finds a repeat exactly when an object of generated JSON has one", () => {
    // Generated objects have unique names; the text then gets one of them written again, or not.
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.boolean(), (object, repeat) => {
        const text = JSON.stringify(object);
        const [name] = Object.keys(object);
        const sent = repeat ? `${text.slice(0, -1)},${JSON.stringify(name)}:null}` : text;
        expect(repeatedMemberName(sent)).toBe(repeat ? name : undefined);
      }),
    );
  });
});
