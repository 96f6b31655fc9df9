import { describe, expect, it } from "vitest";
import { isObject } from "../../src/is-object.ts";

describe("isObject", () => {
  it.each<[string, unknown]>([
    ["{}", {}],
    ['{"a":1}', { a: 1 }],
    ["an object without a prototype", Object.create(null)],
  ])("takes %s", (_, value) => {
    expect(isObject(value)).toBe(true);
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["undefined", undefined],
    ["[]", []],
    ["[{}]", [{}]],
    ["a string", "{}"],
    ["0", 0],
    ["false", false],
  ])("refuses %s: JSON's null and lists are objects to typeof, not members to read", (_, value) => {
    expect(isObject(value)).toBe(false);
  });
});
