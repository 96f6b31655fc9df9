import { describe, expect, it } from "vitest";
import { causeOf } from "../../src/cause.ts";

describe("causeOf", () => {
  it("is the error in cause, where undici puts the socket's", () => {
    const socket = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(causeOf(new TypeError("fetch failed", { cause: socket }))).toBe(socket);
  });

  it("is the error itself when its cause is not an error, or it has none", () => {
    const plain = new TypeError("fetch failed", { cause: "text" });
    expect(causeOf(plain)).toBe(plain);
    const bare = new RangeError("bare");
    expect(causeOf(bare)).toBe(bare);
  });

  it("makes an error of anything else thrown, with its text", () => {
    expect(causeOf("a string").message).toBe("a string");
    expect(causeOf(null).message).toBe("null");
    expect(causeOf(undefined)).toBeInstanceOf(Error);
  });
});
