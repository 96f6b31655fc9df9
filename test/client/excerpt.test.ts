import { describe, expect, it } from "vitest";
import { oneLine, truncate } from "../../src/excerpt.ts";

describe("truncate", () => {
  it("keeps text of at most max characters, and cuts longer text with an ellipsis", () => {
    expect(truncate("abcd", 4)).toBe("abcd");
    expect(truncate("abcde", 4)).toBe("abcd…");
    expect(truncate("", 0)).toBe("");
  });
});

describe("oneLine", () => {
  it("folds each run of whitespace into one space, trims, then cuts", () => {
    expect(oneLine("  a \n\t b\r\nc  ", 10)).toBe("a b c");
    expect(oneLine("a    b    c", 3)).toBe("a b…");
  });
});
