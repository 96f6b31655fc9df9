import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decodeLossy, escapeBytes, invalidUtf8 } from "../../src/invalid-utf8.ts";

const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("invalidUtf8", () => {
  it("is undefined for UTF-8, U+FFFD spelled by the bytes themselves included", () => {
    expect(invalidUtf8(utf8("héllo 日本語 🎉"))).toBeUndefined();
    expect(invalidUtf8(utf8("a\uFFFDb"))).toBeUndefined();
    expect(invalidUtf8(bytes())).toBeUndefined();
  });

  it.each([
    // ISO-8859-1 é.
    [bytes(0x43, 0x61, 0x66, 0xe9), "byte \\xE9 at offset 3: Caf\\xE9"],
    // A lead byte cut short, at the end.
    [bytes(0x61, 0xe6, 0x97), "byte \\xE6 at offset 1: a\\xE6\\x97"],
    // An overlong encoding of "/".
    [bytes(0x61, 0xc0, 0xaf), "byte \\xC0 at offset 1: a\\xC0\\xAF"],
    // A lone continuation byte after a real U+FFFD: the offset counts the three bytes of the real one.
    [new Uint8Array([...utf8("\uFFFD"), 0x80]), "byte \\x80 at offset 3: \\xEF\\xBF\\xBD\\x80"],
    // Bytes that look like the tail of a real U+FFFD after a bad one: only all three make one.
    [bytes(0xff, 0xbf, 0xbd), "byte \\xFF at offset 0: \\xFF\\xBF\\xBD"],
    [bytes(0xef, 0x41, 0xbd), "byte \\xEF at offset 0: \\xEFA\\xBD"],
    [bytes(0xef, 0xbf, 0x41), "byte \\xEF at offset 0: \\xEF\\xBFA"],
    // Text between a real U+FFFD and the bad byte is counted from just after the real one.
    [new Uint8Array([0x61, ...utf8("\uFFFD"), 0x62, 0x63, 0xff]), "byte \\xFF at offset 6: a\\xEF\\xBF\\xBDbc\\xFF"],
    // An encoded surrogate.
    [bytes(0xed, 0xa0, 0x80), "byte \\xED at offset 0: \\xED\\xA0\\x80"],
  ])("finds %s", (input, expected) => {
    expect(invalidUtf8(input)).toBe(expected);
  });

  it("shows at most 24 bytes before the bad one and 8 from it", () => {
    const input = new Uint8Array([...utf8("x".repeat(40)), 0xff, ...utf8("y".repeat(40))]);
    expect(invalidUtf8(input)).toBe(`byte \\xFF at offset 40: ${"x".repeat(24)}\\xFF${"y".repeat(7)}`);
  });

  it("agrees with a fatal decoder on any bytes, and names a byte where the valid prefix ends", () => {
    const fatal = new TextDecoder(undefined, { fatal: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (input) => {
        let valid = true;
        try {
          fatal.decode(input);
        } catch {
          valid = false;
        }
        const found = invalidUtf8(input);
        expect(found === undefined).toBe(valid);
        if (found === undefined) return;
        const offset = Number(/ at offset (\d+):/.exec(found)![1]);
        // Everything before the named byte decodes.
        expect(() => fatal.decode(input.subarray(0, offset))).not.toThrow();
      }),
    );
  });
});

describe("escapeBytes", () => {
  it("shows printable ASCII and escapes every other byte, the backslash too", () => {
    expect(escapeBytes(bytes(0x41, 0x20, 0x7e, 0x5c, 0x00, 0x7f, 0x0a, 0xff))).toBe("A ~\\x5C\\x00\\x7F\\x0A\\xFF");
  });
});

describe("decodeLossy", () => {
  it("reads UTF-8 as it is and shows each sequence that is not UTF-8 as U+FFFD, whatever follows", () => {
    expect(decodeLossy(utf8("héllo 日本語"))).toBe("héllo 日本語");
    expect(decodeLossy(bytes(0x43, 0x61, 0x66, 0xe9, 0x21))).toBe("Caf\uFFFD!");
    // A lead byte cut short at the end is one replacement, not an error and not a dropped tail.
    expect(decodeLossy(bytes(0x61, 0xe6, 0x97))).toBe("a\uFFFD");
    expect(decodeLossy(bytes())).toBe("");
  });
});
