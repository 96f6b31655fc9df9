import { describe, expect, it } from "vitest";
import { isDistinctive, REDACTED, redactSecrets } from "../../lib/redact-secrets.ts";
import { isDistinctive as clientIsDistinctive, redactString } from "../../src/redact.ts";

const KEY = "sk_Abc+def/ghi=";

describe("redactSecrets", () => {
  it.each([
    ["as it came", `/files/${KEY}`],
    ["encoded, upper-case hex", "/files/sk_Abc%2Bdef%2Fghi%3D"],
    ["encoded, lower-case hex", "/files/sk_Abc%2bdef%2fghi%3d"],
    ["encoded, hex of both cases", "/files/sk_Abc%2bdef%2Fghi%3d"],
    ["every character escaped", `/files/${[...KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("")}`],
    ["partly escaped (the first letter)", "/files/%73k_Abc+def%2Fghi="],
  ])("replaces the key %s, and only the characters that spell it", (_, text) => {
    expect(redactSecrets(`${text}/download?x=%2F`, [KEY])).toBe(`/files/${REDACTED}/download?x=%2F`);
  });

  it.each([
    ["twice, upper-case hex", "/files/sk_Abc%252Bdef%252Fghi%253D"],
    ["twice, lower-case hex", "/files/sk_Abc%252bdef%252fghi%253d"],
    ["twice and once in one key", "/files/sk_Abc%252Bdef%2Fghi="],
    ["twice, the second escape's digits escaped too", "/files/sk_Abc%25%32%62def%2fghi%253D"],
    ["twice, every character", `/files/${[...KEY].map((c) => `%25${c.charCodeAt(0).toString(16)}`).join("")}`],
    ["three times", "/files/sk_Abc%25252Bdef%25252Fghi%25253D"],
    ["three times, twice and once in one key", "/files/sk_Abc%25252bdef%252Fghi%3D"],
  ])("replaces the key percent-encoded %s, and only the characters that spell it", (_, text) => {
    expect(redactSecrets(`${text}/download?x=%252F&y=%2F`, [KEY])).toBe(`/files/${REDACTED}/download?x=%252F&y=%2F`);
  });

  it("finds a word-like key encoded twice only as a word of its own, judged on what the escapes stand for", () => {
    expect(redactSecrets("/files/%2564ev and de%2576 and %2564ev%255F1 and de%2576%252D1", ["dev"])).toBe(
      `/files/${REDACTED} and ${REDACTED} and %2564ev%255F1 and ${REDACTED}%252D1`,
    );
  });

  it("decodes at most three times, in one pass per level, however many %25 a long text holds", () => {
    // Each decoding of "%2525…252B" takes off two characters: decoded until no escape is left, it costs a pass per
    // pair. Past the third level a key is left as it is.
    const deep = `%${"25".repeat(200_000)}2B`;
    for (const text of [`/files/sk_Abc${deep}def%2Fghi%3D`, "/files/sk_Abc%2525252Bdef%2525252Fghi%2525253D"])
      expect(redactSecrets(text, [KEY, "dev"])).toBe(text);
    const percents = "%25".repeat(100_000);
    expect(redactSecrets(`${percents}sk_Abc%25252Bdef%25252Fghi%25253D${percents}%2564ev`, [KEY, "dev"])).toBe(
      `${percents}${REDACTED}${percents}${REDACTED}`,
    );
  });

  it("finds a word-like key escaped only as a word of its own, judged on what the escapes stand for", () => {
    expect(redactSecrets("/files/%64ev and de%76 and dev%5F1 and dev%2D1", ["dev"])).toBe(
      `/files/${REDACTED} and ${REDACTED} and dev%5F1 and ${REDACTED}%2D1`,
    );
    expect(redactSecrets("%64ev-key-54/x", ["dev-key-54"])).toBe(`${REDACTED}/x`);
  });

  it("finds a non-ASCII key as its UTF-8 escapes, and as it came beside escapes", () => {
    const key = "clé-secrète-9";
    expect(redactSecrets(`/f/${encodeURIComponent(key)}`, [key])).toBe(`/f/${REDACTED}`);
    expect(redactSecrets(`/f/${key}?a=%2F`, [key])).toBe(`/f/${REDACTED}?a=%2F`);
  });

  it("finds a key that itself holds what reads as an escape, as it came", () => {
    expect(redactSecrets("/f/k%41y-secret-1 and /f/k%2541y-secret-1", ["k%41y-secret-1"])).toBe(
      `/f/${REDACTED} and /f/${REDACTED}`,
    );
  });

  it("redacts the longer secret whole before a shorter one inside it, and leaves a text with no secret as it was", () => {
    expect(redactSecrets("a%2Fsk_Abc%2Bdef%2Fghi%3D", [KEY, "sk_Abc+d"])).toBe(`a%2F${REDACTED}`);
    for (const text of ["", "%", "%zz%2", "/files/sk_Abc%2Bdeg", "100%"]) expect(redactSecrets(text, [KEY])).toBe(text);
  });

  it("is the client's redaction on a text with no escape, and its rule of which secret is distinctive (src/redact.ts)", () => {
    const texts = [
      "Check the base URL; key k.",
      "content-type: text/plain; created_at",
      "/library/files/file_1: file not found",
      "testing attest test_1 test-1",
      "tokensk-live-4f9c2eX and sk-live-4f9c2e",
      "aa aaa",
      "ab1-ab1-ab1-ab1",
    ];
    for (const secret of [
      "k",
      "te",
      "file",
      "test",
      "sk-live-4f9c2e",
      "aa",
      "ab1-ab1-",
      "application",
      "ab12cd34",
      "ABCDEFGHIJ",
    ]) {
      expect(isDistinctive(secret), secret).toBe(clientIsDistinctive(secret));
      for (const text of texts)
        expect(redactSecrets(text, [secret]), `${secret} in ${text}`).toBe(redactString(text, [secret]));
    }
  });
});
