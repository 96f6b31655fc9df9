import { describe, expect, it } from "vitest";
import {
  bodyExcerpt,
  decodeBody,
  DOWNLOAD_ACCEPT,
  MAX_URL_LENGTH,
  parseDownloadUrl,
  parseMetadata,
} from "../../src/response-body.ts";

const ok = <T>(value: T) => ({ ok: true as const, value });
const problem = (text: string) => ({ ok: false as const, problem: text });

describe("decodeBody", () => {
  it("decodes UTF-8, and refuses invalid bytes instead of replacing them", () => {
    expect(decodeBody(new TextEncoder().encode("héllo"))).toEqual(ok("héllo"));
    expect(decodeBody(new Uint8Array([0x68, 0xe9]))).toEqual(
      problem("the body is not valid UTF-8 (byte \\xE9 at offset 1: h\\xE9)"),
    );
    expect(decodeBody(new Uint8Array(0))).toEqual(ok(""));
  });
});

describe("parseMetadata", () => {
  const FULL = '{"id":"f","name":"a.txt","size":1,"created_at":"2026-03-14T09:26:53Z","labels":[]}';
  it.each([
    [FULL, ok(JSON.parse(FULL))],
    // Metadata without the spec's required members is refused, naming them (src/metadata-members.ts).
    [
      "{}",
      {
        ...problem("the answer has no members and not id, name, size, created_at, labels"),
        missing: ["id", "name", "size", "created_at", "labels"],
      },
    ],
    [
      '{"id":"f"}',
      {
        ...problem("the answer has id and not name, size, created_at, labels"),
        missing: ["name", "size", "created_at", "labels"],
      },
    ],
    ["", problem("the body is not JSON")],
    ["{", problem("the body is not JSON")],
    ['{"size":"5","id":"f","size":5}', problem('the body names "size" twice in one object')],
    ['{"a":{"\\u0000":1,"\\u0000":2}}', problem('the body names "\\u0000" twice in one object')],
    [
      '{"labels":[{"a":1},{"a":2}],"a":3,"id":"f","name":"n","size":1,"created_at":"c"}',
      ok({ labels: [{ a: 1 }, { a: 2 }], a: 3, id: "f", name: "n", size: 1, created_at: "c" }),
    ],
    ["null", problem("the body is not a JSON object")],
    ["[]", problem("the body is not a JSON object")],
    ['"text"', problem("the body is not a JSON object")],
    ["3", problem("the body is not a JSON object")],
  ])("%j", (text, expected) => {
    expect(parseMetadata(text)).toEqual(expected);
  });
});

describe("parseDownloadUrl", () => {
  const url = "https://cdn.example.test/f?sig=1";
  it.each<[string, string | null, ReturnType<typeof parseDownloadUrl>]>([
    [url, "text/plain", ok(url)],
    [`  ${url}\n`, "text/plain", ok(url)],
    [JSON.stringify(url), "application/json", ok(url)],
    [JSON.stringify(` ${url} `), "application/problem+json; charset=utf-8", ok(url)],
    [` ${JSON.stringify(url)}`, "text/plain", ok(url)],
    [JSON.stringify(url), null, ok(url)],
    ["http://h.example/x", "TEXT/PLAIN", ok("http://h.example/x")],
    [url, "application/json", problem("the body is not a JSON string")],
    // Only the media type decides, not a parameter that names JSON, nor a type that merely starts like it.
    [url, "text/plain; note=application/json", ok(url)],
    [url, "application/jsonx", ok(url)],
    [url, "xapplication/json", ok(url)],
    ['{"url":"x"}', "application/problem+json", problem("the body is not a JSON string")],
    ['{"url":"x"}', "text/plain", problem("the body is not an absolute URL")],
    ['"unterminated', "text/plain", problem("the body is not a JSON string")],
    ['{"url":"x"}', "application/json", problem("the body is not a JSON string")],
    ["", "text/plain", problem("the body is empty")],
    ["   ", "text/plain", problem("the body is empty")],
    ['"  "', "application/json", problem("the body is empty")],
    [`${url} ${url}`, "text/plain", problem("the body is not a single URL")],
    [`${url}\u00a0x`, "text/plain", problem("the body is not a single URL")],
    // A URL parser would drop these and take the URL; the app would get it with them.
    [`${url}\u0000`, "text/plain", problem(`the URL has a control character (\\u0000 at ${url.length})`)],
    [`\u0000${url}`, "text/plain", problem("the URL has a control character (\\u0000 at 0)")],
    [
      JSON.stringify(`${url}\u0000`),
      "application/json",
      problem(`the URL has a control character (\\u0000 at ${url.length})`),
    ],
    ["https://cdn.example.test/a\tb", "text/plain", problem("the URL has a control character (\\u0009 at 26)")],
    ["https://cdn.example.test/a\nb", "text/plain", problem("the URL has a control character (\\u000a at 26)")],
    ["https://cdn.example.test/a\u007f", "text/plain", problem("the URL has a control character (\\u007f at 26)")],
    ["/relative/path", "text/plain", problem("the body is not an absolute URL")],
    ["ftp://h.example/x", "text/plain", problem("the URL uses ftp, not http(s)")],
    ["javascript:alert(1)", "text/plain", problem("the URL uses javascript, not http(s)")],
  ])("%j as %s", (text, contentType, expected) => {
    expect(parseDownloadUrl(text, contentType)).toEqual(expected);
  });

  it("takes a URL of exactly the longest length, and refuses one character more", () => {
    const longest = `https://h.example/${"a".repeat(MAX_URL_LENGTH - 18)}`;
    expect(longest).toHaveLength(MAX_URL_LENGTH);
    expect(parseDownloadUrl(longest, "text/plain")).toEqual(ok(longest));
    expect(parseDownloadUrl(`${longest}a`, "text/plain")).toEqual(
      problem(`the body is longer than a URL may be (${MAX_URL_LENGTH} characters)`),
    );
  });

  it("looks no further into a body over twice the longest URL; one of exactly twice is read", () => {
    expect(parseDownloadUrl(" ".repeat(2 * MAX_URL_LENGTH + 1), "text/plain")).toEqual(
      problem(`the body is longer than a URL may be (${MAX_URL_LENGTH} characters)`),
    );
    expect(parseDownloadUrl(" ".repeat(2 * MAX_URL_LENGTH), "text/plain")).toEqual(problem("the body is empty"));
  });

  it("asks for plain text first", () => {
    expect(DOWNLOAD_ACCEPT).toBe("text/plain, application/json;q=0.9");
  });
});

describe("bodyExcerpt", () => {
  it("is the body on one line, cut at 120 characters, or says it is empty", () => {
    expect(bodyExcerpt("a\n b")).toBe("a b");
    expect(bodyExcerpt("x".repeat(121))).toBe(`${"x".repeat(120)}…`);
    expect(bodyExcerpt(" \n ")).toBe("<empty body>");
  });
});
