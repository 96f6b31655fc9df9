import { describe, expect, it } from "vitest";
import { escapeControls, oneLine, truncate } from "../../src/excerpt.ts";

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

  it("escapes the control characters it cannot show, after folding whitespace", () => {
    expect(oneLine("url\u0000 \u001b[31m\u007f\u0085ok", 100)).toBe("url\\u0000 \\u001b[31m\\u007f\\u0085ok");
    expect(escapeControls("tab\there")).toBe("tab\\u0009here");
    expect(escapeControls("é ü")).toBe("é ü");
  });
});
