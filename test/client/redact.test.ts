// The API key never leaking from the client's errors, end to end, is test/client/secrets.test.ts; this is the module itself.
import { describe, expect, it } from "vitest";
import {
  isDistinctive,
  isSecretName,
  MAX_DEPTH,
  REDACTED,
  redactHeaders,
  redactString,
  redactValue,
} from "../../src/redact.ts";

describe("redactString", () => {
  it("replaces every occurrence of every secret", () => {
    expect(redactString("k1 and k1, k2", ["k1", "k2"])).toBe(`${REDACTED} and ${REDACTED}, ${REDACTED}`);
  });

  // A key that could be an ordinary word is found only as a word of its own: redacting it inside words garbled every
  // message ("Chec[REDACTED] the base URL" for the key k, "con[REDACTED]nt-type" for te, a near miss of test).
  it.each([
    ["k", "Check the base URL; key k.", `Check the base URL; key ${REDACTED}.`],
    ["te", "content-type: text/plain; created_at", "content-type: text/plain; created_at"],
    ["file", "/library/files/file_1: file not found", `/library/files/file_1: ${REDACTED} not found`],
    ["application", "application/json", `${REDACTED}/json`],
    ["test", "Bearer test", `Bearer ${REDACTED}`],
    ["test", "testing attest test_1 test-1", `testing attest test_1 ${REDACTED}-1`],
    ["TEST", "test", "test"],
  ])("finds the word-like key %j only as a word of its own in %j", (secret, text, expected) => {
    expect(redactString(text, [secret])).toBe(expected);
  });

  it.each([
    ["sk-live-4f9c2e", "tokensk-live-4f9c2eX and sk-live-4f9c2e", `token${REDACTED}X and ${REDACTED}`],
    ["ab12cd34", "xab12cd34y", `x${REDACTED}y`],
  ])("finds the distinctive key %j everywhere, inside words too", (secret, text, expected) => {
    expect(redactString(text, [secret])).toBe(expected);
  });

  // The key is looked for as text: characters a pattern would read as operators match only themselves.
  it.each(["a.b+c*d?", "(k|x)[1]{2}^$\\", "k.1"])("reads every character of %j as itself", (secret) => {
    expect(redactString(`${secret} and ${secret.replace(/[^A-Za-z0-9]/g, "x")}`, [secret])).toBe(
      `${REDACTED} and ${secret.replace(/[^A-Za-z0-9]/g, "x")}`,
    );
  });

  it("redacts overlapping occurrences once each, and text at both ends", () => {
    expect(redactString("aa aaa", ["aa"])).toBe(`${REDACTED} aaa`);
    expect(redactString("k1-k1", ["k1"])).toBe(`${REDACTED}-${REDACTED}`);
    expect(redactString("12345678:x", ["12345678"])).toBe(`${REDACTED}:x`);
    expect(redactString("ab1-ab1-ab1-ab1", ["ab1-ab1-"])).toBe(`${REDACTED}ab1-ab1`);
  });

  it.each([
    ["application", false],
    ["k1", false],
    ["abcdefgh", false],
    ["abcdefg1", true],
    ["abc-defg", true],
    ["abc1", false],
  ])("%j is distinctive: %s", (secret, expected) => {
    expect(isDistinctive(secret)).toBe(expected);
  });

  it("skips an empty secret instead of redacting between every character", () => {
    expect(redactString("abc - def", [""])).toBe("abc - def");
  });
});

describe("isSecretName", () => {
  it.each([
    "Authorization",
    "set-cookie",
    "x-api-key",
    "api_key",
    "apikey",
    "client_secret",
    "access_token",
    "password",
    "credentials",
  ])("%s is", (name) => {
    expect(isSecretName(name)).toBe(true);
  });
  it.each(["content-type", "x-request-id", "labels", "api"])("%s is not", (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});

describe("redactValue", () => {
  it("blanks secret-named fields that hold a value, redacts the key everywhere, keeps the rest", () => {
    const value = {
      token: "t",
      apiKey: 7,
      password: null,
      secret: { nested: "Q9" },
      list: ["Q9", 1, true],
      "Q9-name": "ok",
    };
    expect(redactValue(value, ["Q9"])).toEqual({
      token: REDACTED,
      apiKey: REDACTED,
      password: null,
      secret: { nested: REDACTED },
      list: [REDACTED, 1, true],
      [`${REDACTED}-name`]: "ok",
    });
  });

  it(`copies ${MAX_DEPTH} levels deep and leaves out what is deeper`, () => {
    const deep = (levels: number): unknown => (levels === 0 ? "leaf" : { a: deep(levels - 1) });
    const walk = (value: unknown, levels: number) =>
      Array.from({ length: levels }).reduce<unknown>((v) => (v as { a: unknown }).a, value);
    expect(walk(redactValue(deep(MAX_DEPTH), []), MAX_DEPTH)).toBe("leaf");
    expect(walk(redactValue(deep(MAX_DEPTH + 1), []), MAX_DEPTH)).toBe(`[left out: deeper than ${MAX_DEPTH} levels]`);
  });
});

describe("redactHeaders", () => {
  it("blanks secret-named headers, redacts the key in the others, and copies", () => {
    const headers = new Headers({ authorization: "Bearer k", "x-echo": "key k", "content-type": "text/plain" });
    const copy = redactHeaders(headers, ["k"]);
    expect(Object.fromEntries(copy)).toEqual({
      authorization: REDACTED,
      "x-echo": `key ${REDACTED}`,
      "content-type": "text/plain",
    });
    expect(headers.get("authorization")).toBe("Bearer k");
  });
});
