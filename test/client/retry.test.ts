// covers: src/retry.ts, src/http-date.ts
// How retries behave in calls is test/client/client-retries.test.ts; this is the policy module's own edges.
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_MS, retryDelay, serverDelay, shouldRetryStatus, wait } from "../../src/retry.ts";

const h = (init: Record<string, string>) => new Headers(init);

describe("serverDelay", () => {
  it.each<[Record<string, string>, ReturnType<typeof serverDelay>]>([
    [{ "retry-after-ms": "0" }, { ms: 0, source: "retry-after-ms" }],
    [{ "retry-after-ms": "250.5" }, { ms: 250.5, source: "retry-after-ms" }],
    [{ "retry-after-ms": "250.25" }, { ms: 250.25, source: "retry-after-ms" }],
    [{ "retry-after-ms": "250\u00a0" }, { ms: 250, source: "retry-after-ms" }],
    // Digits past what a number holds: no wait of Infinity.
    [
      { "retry-after-ms": "9".repeat(400), "retry-after": "2" },
      { ms: 2_000, source: "retry-after" },
    ],
    [
      { "retry-after-ms": "-1", "retry-after": "2" },
      { ms: 2_000, source: "retry-after" },
    ],
    [
      { "retry-after-ms": "1e999", "retry-after": "2" },
      { ms: 2_000, source: "retry-after" },
    ],
    [
      { "retry-after-ms": "soon", "retry-after": "2" },
      { ms: 2_000, source: "retry-after" },
    ],
    [{ "retry-after": " 3 " }, { ms: 3_000, source: "retry-after" }],
    [{ "retry-after": "3\u00a0" }, { ms: 3_000, source: "retry-after" }],
    [{ "retry-after": "0" }, { ms: 0, source: "retry-after" }],
    [{ "retry-after": "12" }, { ms: 12_000, source: "retry-after" }],
    [{ "retry-after": "Thu, 01 Jan 1970 00:00:05 GMT" }, { ms: 4_000, source: "retry-after" }],
    [{ "retry-after": "Thu, 01 Jan 1970 00:00:00 GMT" }, { ms: 0, source: "retry-after" }],
    // The two obsolete forms RFC 9110 makes recipients accept: rfc850-date and asctime-date.
    [{ "retry-after": "Thursday, 01-Jan-70 00:00:07 GMT" }, { ms: 6_000, source: "retry-after" }],
    [{ "retry-after": "Thu Jan  1 00:00:09 1970" }, { ms: 8_000, source: "retry-after" }],
    [
      { "retry-after-ms": "2.5e3", "retry-after": "4" },
      { ms: 4_000, source: "retry-after" },
    ],
    [{}, undefined],
    [{ "retry-after": "" }, undefined],
    [{ "retry-after": "soon" }, undefined],
  ])("%j", (headers, expected) => {
    expect(serverDelay(h(headers), 1_000)).toEqual(expected);
  });

  // V8's Date.parse reads "-5" as a day in 2001, "1." as 1 January 2001 and "+5" as the year 5: each a past date, so a
  // wait of 0, and retries 4 ms apart. RFC 9110 allows only digits or an HTTP-date.
  it.each([
    "-5",
    "+5",
    "1.",
    "1.25",
    ".5",
    "3s",
    "x3",
    "1.2.3",
    "Thu, 01 Jan 1970 00:00:05",
    "Thu, 31 Feb 2026 00:00:00 GMT",
    "Thu, 01 Jan 2026 24:00:00 GMT",
    "2026-01-01T00:00:00Z",
  ])("reads %j as no wait at all", (value) => {
    expect(serverDelay(h({ "retry-after": value }), 0)).toBeUndefined();
  });

  it("reads a two-digit year as the past century when it would be more than 50 years ahead (RFC 9110, 5.6.7)", () => {
    const now = Date.UTC(2026, 10, 26);
    expect(serverDelay(h({ "retry-after": "Friday, 27-Nov-26 00:00:00 GMT" }), now)).toEqual({
      ms: 86_400_000,
      source: "retry-after",
    });
    expect(serverDelay(h({ "retry-after": "Sunday, 06-Nov-94 08:49:37 GMT" }), now)).toEqual({
      ms: 0,
      source: "retry-after",
    });
  });

  it("reads nothing without headers", () => {
    expect(serverDelay(undefined)).toBeUndefined();
  });
});

describe("retryDelay", () => {
  it("honours a server's wait of up to 60 s, and backs off past it", () => {
    expect(retryDelay(0, h({ "retry-after-ms": String(MAX_RETRY_AFTER_MS) }), 0)).toEqual({
      ms: MAX_RETRY_AFTER_MS,
      source: "retry-after-ms",
    });
    expect(retryDelay(0, h({ "retry-after-ms": String(MAX_RETRY_AFTER_MS + 1) }), 0, () => 0)).toEqual({
      ms: 500,
      source: "backoff",
    });
  });
});

describe("shouldRetryStatus", () => {
  it.each([
    [408, {}, true],
    [409, {}, true],
    [429, {}, true],
    [500, {}, true],
    [599, {}, true],
    [499, {}, false],
    [400, {}, false],
    [400, { "x-should-retry": " TRUE " }, true],
    [503, { "x-should-retry": "false" }, false],
    [503, { "x-should-retry": "maybe" }, true],
  ] as const)("%i with %j: %s", (status, headers, expected) => {
    expect(shouldRetryStatus(status, h(headers))).toBe(expected);
  });
});

describe("wait", () => {
  it("resolves after the time, with no signal", async () => {
    await expect(wait(1)).resolves.toBeUndefined();
  });

  it("ends at once for a signal aborted before", async () => {
    const controller = new AbortController();
    controller.abort("before");
    await expect(wait(60_000, controller.signal)).resolves.toBeUndefined();
  });

  it("ends when the signal aborts while waiting, and leaves no listener behind either way", async () => {
    const controller = new AbortController();
    const waiting = wait(60_000, controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort("during");
    await expect(waiting).resolves.toBeUndefined();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    const other = new AbortController();
    await wait(1, other.signal);
    expect(getEventListeners(other.signal, "abort")).toHaveLength(0);
  });
});
