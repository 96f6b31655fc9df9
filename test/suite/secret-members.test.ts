import { describe, expect, it } from "vitest";
import {
  blankSecretMembers,
  blankSecretParameters,
  blankSecretQuery,
} from "../../contract-tests/http/secret-members.ts";
import { curlFor } from "../../contract-tests/http/curl.ts";

describe("blankSecretMembers", () => {
  it("blanks the value of every secret-named member, at any depth, and walks into objects and arrays under such names", () => {
    const text = JSON.stringify({
      labels: ["a"],
      token: "t-1",
      nested: { password: 7, apiKey: null, list: [{ client_secret: true }] },
      credentials: { user: "u" },
    });
    expect(JSON.parse(blankSecretMembers(text))).toEqual({
      labels: ["a"],
      token: "[REDACTED]",
      nested: { password: "[REDACTED]", apiKey: "[REDACTED]", list: [{ client_secret: "[REDACTED]" }] },
      credentials: { user: "u" },
    });
  });

  it("keeps a text with no secret-named member byte for byte, and any text that is not JSON", () => {
    for (const text of [
      '{ "labels" : [ "token" ],\n "publicUrl": "x" }',
      "token=abc",
      "",
      "[body elided: 3 bytes, sha256 00]",
    ])
      expect(blankSecretMembers(text)).toBe(text);
  });

  it("leaves out, rather than shows, a body too deep to write again", () => {
    const deep = `{"token":"t",${'"a":['.repeat(1)}${"[".repeat(20_000)}${"]".repeat(20_000)}]}`;
    expect(blankSecretMembers(deep)).not.toContain('"t"');
  });
});

describe("curlFor", () => {
  it("blanks secret-named members of the body and secret-named headers, the key's header still from $FILE_LIBRARY_API_KEY", () => {
    const curl = curlFor({
      auth: "valid",
      method: "PUT",
      path: "/f/1",
      url: "http://h/f/1",
      headers: { authorization: "Bearer [REDACTED]", cookie: "s=1", "x-api-key": "k", accept: "application/json" },
      body: '{"labels":[],"password":"p"}',
    });
    expect(curl).toBe(
      `curl -i -X PUT 'http://h/f/1' -H "Authorization: Bearer $FILE_LIBRARY_API_KEY" -H 'cookie: [REDACTED]' -H 'x-api-key: [REDACTED]' -H 'accept: application/json' --data-raw '{"labels":[],"password":"[REDACTED]"}'`,
    );
  });
});

describe("blankSecretParameters, blankSecretQuery and a form body", () => {
  it("blanks each secret-named parameter of a form body, its name decoded, every other byte kept", () => {
    expect(blankSecretMembers("token=FORMSECRET-888&labels=x", "application/x-www-form-urlencoded")).toBe(
      `token=[REDACTED]&labels=x`,
    );
    expect(blankSecretParameters("api%5Fkey=a&client+secret=b&labels=%2F+x&token&=v&%E0=z")).toBe(
      "api%5Fkey=[REDACTED]&client+secret=[REDACTED]&labels=%2F+x&token&=v&%E0=z",
    );
    expect(blankSecretMembers("password=p", "Application/X-WWW-Form-Urlencoded; charset=utf-8")).toBe(
      "password=[REDACTED]",
    );
    // Only a form says so: the same text as plain text is no form.
    expect(blankSecretMembers("token=abc", "text/plain")).toBe("token=abc");
  });

  it("blanks the secret-named parameters of a target's query, and leaves a target with none alone", () => {
    expect(blankSecretQuery("/f/1?token=t&limit=2")).toBe("/f/1?token=[REDACTED]&limit=2");
    expect(blankSecretQuery("/f/token=1")).toBe("/f/token=1");
  });

  it("the curl command blanks them too: in its URL's query and in a form body", () => {
    const curl = curlFor({
      auth: "none",
      method: "PUT",
      path: "/f/1",
      url: "http://h/f/1?access_token=q",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "token=FORMSECRET-888&labels=x",
    });
    expect(curl).toBe(
      `curl -i -X PUT 'http://h/f/1?access_token=[REDACTED]' -H 'Content-Type: application/x-www-form-urlencoded' --data-raw 'token=[REDACTED]&labels=x'`,
    );
  });
});
