import { describe, expect, it } from "vitest";
import { parseBaseUrl } from "../../src/base-url.ts";

describe("parseBaseUrl", () => {
  it.each([
    ["https://files.example.com", "https://files.example.com"],
    ["  https://files.example.com/  ", "https://files.example.com"],
    ["http://127.0.0.1:4010/api///", "http://127.0.0.1:4010/api"],
    ["HTTPS://Files.Example.com/Base/", "https://files.example.com/Base"],
    // Whitespace the URL parser itself would refuse, such as a no-break space pasted from a page.
    ["\u00a0https://files.example.com\u2003", "https://files.example.com"],
  ])("takes %j as %j", (value, url) => {
    expect(parseBaseUrl(value)).toEqual({ ok: true, url });
  });

  it.each([
    // No scheme: the URL parser would read "localhost" as one, and the message would garble the value.
    ["localhost:4010", '"localhost:4010" has no scheme: did you mean http://localhost:4010?'],
    ["127.0.0.1:4010/api", '"127.0.0.1:4010/api" has no scheme: did you mean http://127.0.0.1:4010/api?'],
    ["[::1]:4010", '"[::1]:4010" has no scheme: did you mean http://[::1]:4010?'],
    // Off this machine, the service is https.
    [" files.example.com ", '" files.example.com " has no scheme: did you mean https://files.example.com?'],
    [
      "files.example.com:8443/v1",
      '"files.example.com:8443/v1" has no scheme: did you mean https://files.example.com:8443/v1?',
    ],
    ["ser.127.example.com", '"ser.127.example.com" has no scheme: did you mean https://ser.127.example.com?'],
    ["not a url", '"not a url" is not an absolute URL such as https://files.example.com.'],
    ["ftp://files.example.com/x", "ftp://files.example.com/x must use http or https, not ftp."],
    [
      "https://user@files.example.com/",
      "https://files.example.com/ must not carry credentials: the API key has its own setting.",
    ],
    [
      "https://:secret@files.example.com/",
      "https://files.example.com/ must not carry credentials: the API key has its own setting.",
    ],
    ["https://files.example.com/?a=1", "https://files.example.com/ must not have a query or fragment."],
    ["https://files.example.com/#top", "https://files.example.com/ must not have a query or fragment."],
  ])("refuses %j: %s", (value, problem) => {
    expect(parseBaseUrl(value)).toEqual({ ok: false, problem });
  });
});
