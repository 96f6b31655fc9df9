import { describe, expect, it } from "vitest";
import { jsonErrorOffset } from "../../../contract-tests/pact/json-error-offset.ts";
import { whereParsingStopped } from "../../../contract-tests/pact/read-pact.ts";

describe("jsonErrorOffset", () => {
  it.each([
    ['{"a": [1, 2, {"b": null}], "c": "x\\"y"}', -1],
    ["  [ ]  ", -1],
    ['{"a": 1,}', 8],
    ['{"a" 1}', 5],
    ["[1, 2", 5],
    ['{"a": tru}', 6],
    ["[01]", 2],
    ['["tab\there"]', 1],
    ["{} {}", 3],
    ['{"a": [,]}', 7],
    ["", 0],
  ])("%j breaks at %i", (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
    if (offset === -1) expect(() => JSON.parse(text)).not.toThrow();
    else expect(() => JSON.parse(text)).toThrow();
  });

  it("scans nesting far deeper than a recursive parser's stack", () => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(199_999)}`;
    expect(jsonErrorOffset(deep)).toBe(deep.length);
  });

  it("gives the line and column a reader's editor shows", () => {
    expect(whereParsingStopped('{\n  "interactions": [\n    {"description": "x",,}\n  ]\n}')).toEqual({
      line: 3,
      column: 25,
    });
  });
});
