import { describe, expect, it } from "vitest";
import { echoesOf, type EchoSource } from "../../contract-tests/http/secret-echo.ts";

const KEY = "k-echo-4711";
/** An answer with these headers and this body. */
const answer = (text: string, headers: Record<string, string> = {}): EchoSource => ({
  text,
  headers: new Headers(headers),
});
/** `depth` objects, one inside the other, the innermost holding `member`. */
const nested = (depth: number, member: Record<string, string>): string => {
  let value: unknown = member;
  for (let i = 0; i < depth; i++) value = { inner: value };
  return JSON.stringify(value);
};

describe("echoesOf: where an answer sends a credential back", () => {
  it("finds a distinctive credential anywhere: inside a header's value and inside the body, each place once", () => {
    expect(
      echoesOf(answer(`{"debug":"sent ${KEY} here"}`, { "x-debug": `key=${KEY};`, "x-other": "none" }), [KEY, KEY]),
    ).toEqual(["the body", "header x-debug"]);
    expect(echoesOf(answer(`{"debug":"none"}`, { "x-debug": "none" }), [KEY])).toEqual([]);
  });

  it("names each place once when two credentials are echoed in it, and skips an empty credential", () => {
    expect(echoesOf(answer(`${KEY} Bearer-${KEY}x`, { "x-debug": `${KEY} ${KEY}x` }), [KEY, `${KEY}x`])).toEqual([
      "the body",
      "header x-debug",
    ]);
    expect(echoesOf(answer("", { "x-empty": "" }), [""])).toEqual([]);
  });

  it("finds a word-like credential in a header only when the header is it alone, or a scheme and it", () => {
    // Headers as the suite's transport hands them over, untrimmed (Headers would trim them itself).
    const found = (value: string) =>
      echoesOf({ text: "{}", headers: { forEach: (callback) => callback(value, "x-echo") } }, ["test"]);
    expect(found("test")).toEqual(["header x-echo"]);
    expect(found("  test ")).toEqual(["header x-echo"]);
    expect(found(" Bearer test\t")).toEqual(["header x-echo"]);
    expect(found("Bearer test")).toEqual(["header x-echo"]);
    expect(found("Token.v1+x  test")).toEqual(["header x-echo"]);
    for (const value of [
      "attest",
      "test-suite",
      "a-test",
      "1 test",
      "1 a test",
      "Bearer: test",
      "Bearertest",
      "Bearer xtest",
      "text/test;q=1",
    ])
      expect(found(value), value).toEqual([]);
    // The spelling of a key never turns an ordinary header into an echo.
    expect(echoesOf(answer("{}", { "content-type": "application/json" }), ["application"])).toEqual([]);
  });

  it("finds a word-like credential in a body only when the body is it alone, or a member named like a credential holds it as a word", () => {
    const found = (text: string) => echoesOf(answer(text), ["test"]);
    expect(found(" test\n")).toEqual(["the body"]);
    expect(found('{"token":"Bearer test"}')).toEqual(["the body"]);
    expect(found('{"data":[{"authorization":"test"}]}')).toEqual(["the body"]);
    // One member of several: the others, a null among them, neither hide it nor break the walk.
    expect(found('{"id":"f1","size":null,"token":"test"}')).toEqual(["the body"]);
    for (const text of [
      '{"labels":["test"],"next":null}',
      '{"token":"attest"}',
      '{"token":["test"]}',
      "a test",
      '{"token":"test"',
      '"test"',
    ])
      expect(found(text), text).toEqual([]);
  });

  it("walks a body no deeper than 64 levels, as the client copies one", () => {
    // The member's object is the 64th level when 63 objects hold it: where the client's copy still keeps it.
    expect(echoesOf(answer(nested(63, { token: "test" })), ["test"])).toEqual(["the body"]);
    expect(echoesOf(answer(nested(64, { token: "test" })), ["test"])).toEqual([]);
  });
});
