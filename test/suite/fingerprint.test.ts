import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { fingerprint } from "../../contract-tests/proxy/fingerprint.ts";

const long = "x".repeat(200);

describe("fingerprint", () => {
  it("is a value's JSON when that is 100 characters or less", () => {
    expect(fingerprint(["a", 1, null, true, { b: "c" }])).toBe('["a",1,null,true,{"b":"c"}]');
    expect(fingerprint("x".repeat(98))).toBe(JSON.stringify("x".repeat(98)));
    expect(fingerprint(undefined)).toBe("undefined");
  });

  it("is the JSON's first 100 characters and a digest past that, whatever the value's size", () => {
    const print = fingerprint(["a", "x".repeat(1_000_000)]);
    expect(print).toMatch(/^\["a","x{94}… \(sha256 [0-9a-f]{16}\)$/);
    expect(fingerprint("x".repeat(99))).toMatch(/^"x{99}… \(sha256 [0-9a-f]{16}\)$/);
    // Not the digest of the JSON text: of the value, walked (the text is never made whole).
    expect(print).not.toContain(createHash("sha256").update(JSON.stringify(["a", "x".repeat(1_000_000)])).digest("hex").slice(0, 16));
  });

  it("is equal for equal values, and tells apart any two whose JSON differs, past the characters it shows", () => {
    const same = () => ({ id: "a", list: [long, 1, null, { k: long }] });
    expect(fingerprint(same())).toBe(fingerprint(same()));
    const differing = [
      { id: "a", list: [long, 1, null, { k: `${long}y` }] },
      { id: "a", list: [long, "1", null, { k: long }] },
      { id: "a", list: [long, 1, false, { k: long }] },
      { id: "a", list: [long, 1, null, { j: long }] },
      { id: "a", list: [long, 1, null, { k: long }, 2] },
      { list: [long, 1, null, { k: long }], id: "a" },
      { id: "a", list: [`${long}`.slice(1), "x", 1, null, { k: long }] },
    ];
    const prints = new Set([same(), ...differing].map(fingerprint));
    expect(prints.size).toBe(differing.length + 1);
  });

  it("tells a string from its parts, and a string from an array of it", () => {
    expect(fingerprint([long, "ab"])).not.toBe(fingerprint([long, "a", "b"]));
    expect(fingerprint([long, ["ab"]])).not.toBe(fingerprint([long, "ab"]));
    expect(fingerprint([long, { a: "b" }])).not.toBe(fingerprint([long, ["a", "b"]]));
  });
});
