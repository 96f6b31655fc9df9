import { describe, expect, it } from "vitest";
import { isRfc3339DateTime } from "../../lib/openapi/rfc3339.ts";

describe("isRfc3339DateTime: format date-time as RFC 3339 writes it", () => {
  it.each([
    "2026-01-02T03:04:05Z",
    "2026-01-02T03:04:05.000Z",
    "2026-01-02T03:04:05.123456+00:00",
    "2026-01-02T03:04:05-00:00",
    // 5.6, NOTE: T and Z may be lower case.
    "2026-01-02t03:04:05z",
    // A leap second is the last second of a UTC day, whatever the offset it is written in.
    "2016-12-31T23:59:60Z",
    "2017-01-01T00:59:60+01:00",
    "2024-02-29T00:00:00Z",
  ])("takes %s", (text) => {
    expect(isRfc3339DateTime(text)).toBe(true);
  });

  it.each([
    // ISO 8601's basic offset, which older Jackson versions write: RFC 3339 requires the colon.
    "2026-01-02T03:04:07.000+0000",
    "2026-01-02T03:04:05",
    "2026-01-02 03:04:05Z",
    "2026-01-02T03:04:05.Z",
    "2016-12-31T22:59:60Z",
    "2026-02-29T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-01-32T00:00:00Z",
    "2026-01-02T24:00:00Z",
    "2026-01-02T03:60:00Z",
    "2026-01-02T03:04:61Z",
    "2026-01-02T03:04:05+24:00",
    "2026-01-02T03:04:05+00:60",
    "26-01-02T03:04:05Z",
  ])("refuses %s", (text) => {
    expect(isRfc3339DateTime(text)).toBe(false);
  });
});
