import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { fingerprint } from "../../contract-tests/proxy/fingerprint.ts";

const long = "x".repeat(200);

describe("fingerprint", () => {
  it("is a value's JSON when that is 100 characters or less", () => {
    expect(fingerprint(["a", 1, null, true, { b: "c" }])).toBe('["a",1,null,true,{"b":"c"}]');
    expect(fingerprint("x".repeat(98))).toBe(JSON.stringify("x".repeat(98)));
    expect(fingerprint(undefined)).toBe("undefined");
    expect(fingerprint({ a: 1, b: [2, { c: "d", e: null }] })).toBe('{"a":1,"b":[2,{"c":"d","e":null}]}');
  });

  it("is the JSON's first 100 characters and a digest past that, whatever the value's size", () => {
    const print = fingerprint(["a", "x".repeat(1_000_000)]);
    expect(print).toMatch(/^\["a","x{94}… \(sha256 [0-9a-f]{16}\)$/);
    expect(fingerprint("x".repeat(99))).toMatch(/^"x{99}… \(sha256 [0-9a-f]{16}\)$/);
    // Not the digest of the JSON text: of the value, walked (the text is never made whole).
    expect(print).not.toContain(
      createHash("sha256")
        .update(JSON.stringify(["a", "x".repeat(1_000_000)]))
        .digest("hex")
        .slice(0, 16),
    );
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

describe("fingerprint: what it shows and what it walks", () => {
  /** An object that counts how often its members are listed: by the preview, and by the digest's walk. */
  function counted(): { value: object; walks: () => number } {
    let walks = 0;
    const value = new Proxy({ k: "v" }, { ownKeys: (target) => (walks++, Reflect.ownKeys(target)) });
    return { value, walks: () => walks };
  }

  it("shows exactly the first 100 characters of the JSON text, as JSON.stringify writes it, then the digest", () => {
    const values: unknown[] = [
      `${"x".repeat(98)}😀${"x".repeat(10)}`,
      '"\\\n'.repeat(60),
      { ["k".repeat(150)]: 1 },
      [{ a: [1, { b: "x".repeat(95) }] }, 2],
      { a: "x".repeat(94), b: 2 },
    ];
    for (const value of values) {
      const print = fingerprint(value);
      expect(print.slice(0, 100), JSON.stringify(value).slice(0, 40)).toBe(JSON.stringify(value).slice(0, 100));
      expect(print.slice(100)).toMatch(/^… \(sha256 [0-9a-f]{16}\)$/);
    }
  });

  it("walks an item that starts within the 100 characters, and nothing past them but for the digest", () => {
    const short = counted();
    expect(fingerprint([short.value])).toBe('[{"k":"v"}]');
    expect(short.walks()).toBe(1);
    // "[" and 99 characters of string: the "," that follows is the 101st, and the object is only hashed.
    const afterList = counted();
    fingerprint(["x".repeat(97), afterList.value]);
    expect(afterList.walks()).toBe(1);
    const afterName = counted();
    fingerprint({ big: "x".repeat(200), inner: afterName.value });
    expect(afterName.walks()).toBe(1);
    const inName = counted();
    fingerprint({ ["k".repeat(120)]: inName.value });
    expect(inName.walks()).toBe(1);
  });

  it("digests the value walked with each part typed and each string and list prefixed with its length", () => {
    const value = [long, "ab", 1, null, true, {}, [], { k: "v" }, undefined];
    const walk = `a9:s200:${long}s2:abv1;vnull;vtrue;o0:a0:o1:s1:ks1:vvundefined;`;
    const digest = createHash("sha256").update(walk).digest("hex").slice(0, 16);
    expect(fingerprint(value)).toBe(`["${"x".repeat(98)}… (sha256 ${digest})`);
  });

  it("tells apart values that a naive concatenation of their parts would confuse", () => {
    const pairs: [unknown, unknown][] = [
      [["ab"], ["a", "b"]],
      ["1", 1],
      [{}, []],
      [null, {}],
      [[], [[]]],
      [{ a: { b: 1 } }, { a: {}, b: 1 }],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [
        ["a", ["b"]],
        [["a"], "b"],
      ],
      [{ ab: "c" }, { a: "bc" }],
    ];
    for (const [a, b] of pairs) {
      expect(fingerprint([long, a]), `${JSON.stringify(a)} and ${JSON.stringify(b)}`).not.toBe(fingerprint([long, b]));
      expect(fingerprint([long, a])).toBe(fingerprint([long, structuredClone(a)]));
    }
  });
});
