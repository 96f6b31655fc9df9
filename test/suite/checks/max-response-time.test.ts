import { describe, expect, it } from "vitest";
import { maxResponseTime } from "../../../contract-tests/checks/max-response-time.ts";
import { answer, spec } from "../../support/exchange-builder.ts";

const judge = (durationMs: number, limits?: { maxResponseMs: number }) =>
  maxResponseTime.inspect(answer({ json: {}, durationMs }), spec, limits);

describe("max_response_time", () => {
  it("warns, never fails, when an answer is slower than the limit, with both in whole ms", () => {
    expect(judge(251.6, { maxResponseMs: 250 })).toEqual({
      failures: [],
      warnings: ["answered in 252 ms, over the limit of 250 ms"],
    });
  });

  it("is silent at the limit and under it", () => {
    expect(judge(250, { maxResponseMs: 250 })).toEqual({ failures: [], warnings: [] });
  });

  it("holds answers to 5000 ms when given no limits", () => {
    expect(judge(5_000)).toEqual({ failures: [], warnings: [] });
    expect(judge(5_001)).toEqual({ failures: [], warnings: ["answered in 5001 ms, over the limit of 5000 ms"] });
  });
});
