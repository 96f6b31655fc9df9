// How the client waits on a Retry-After date is test/client/retry.test.ts; this is the date parser's own edges.
import { describe, expect, it } from "vitest";
import { parseHttpDate } from "../../src/http-date.ts";

const NOW = Date.UTC(2026, 10, 26);

describe("parseHttpDate", () => {
  it.each([
    ["Sun, 06 Nov 1994 08:49:37 GMT", Date.UTC(1994, 10, 6, 8, 49, 37)],
    ["Sunday, 06-Nov-94 08:49:37 GMT", Date.UTC(1994, 10, 6, 8, 49, 37)],
    ["Sun Nov  6 08:49:37 1994", Date.UTC(1994, 10, 6, 8, 49, 37)],
    // asctime-date's day is two digits, or a space and one.
    ["Wed Nov 16 08:49:37 1994", Date.UTC(1994, 10, 16, 8, 49, 37)],
  ])("reads %j, in each of the three forms", (text, expected) => {
    expect(parseHttpDate(text, NOW)).toBe(expected);
  });

  it.each([
    "+Sun, 06 Nov 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 08:49:37 GMT+",
    "+Sunday, 06-Nov-94 08:49:37 GMT",
    "Sunday, 06-Nov-94 08:49:37 GMT+",
    "+Sun Nov  6 08:49:37 1994",
    "Sun Nov  6 08:49:37 1994+",
  ])("reads %j, a date with text before or after it, as no date", (text) => {
    expect(parseHttpDate(text, NOW)).toBeUndefined();
  });

  it.each([
    "Invalid Date",
    "Sat, 01 Jan 10000 00:00:00 GMT",
    "Sun, 06 Nov 1994 08:49:37 GMT ",
    "Mon, 06 Nov 1994 08:49:37 GMT",
    "Sun, 31 Feb 1994 08:49:37 GMT",
  ])("reads %j, which is no IMF-fixdate of a year of four digits that exists, as no date", (text) => {
    expect(parseHttpDate(text, NOW)).toBeUndefined();
  });

  it("reads a two-digit year exactly 50 years ahead as this century, and one more as the last (RFC 9110, 5.6.7)", () => {
    expect(parseHttpDate("Wednesday, 01-Jan-76 00:00:00 GMT", NOW)).toBe(Date.UTC(2076, 0, 1));
    expect(parseHttpDate("Thursday, 01-Jan-76 00:00:00 GMT", NOW)).toBeUndefined();
    expect(parseHttpDate("Friday, 01-Jan-77 00:00:00 GMT", Date.UTC(2026, 0, 1))).toBeUndefined();
    expect(parseHttpDate("Saturday, 01-Jan-77 00:00:00 GMT", Date.UTC(2026, 0, 1))).toBe(Date.UTC(1977, 0, 1));
  });
});
