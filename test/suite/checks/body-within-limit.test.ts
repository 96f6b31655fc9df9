import { describe, expect, it } from "vitest";
import { bodyWithinLimit } from "../../../contract-tests/checks/body-within-limit.ts";
import { answer, spec } from "../../support/exchange-builder.ts";

describe("body_within_limit", () => {
  it("fails a body the suite cut, with the limit in bytes and MiB", () => {
    expect(
      bodyWithinLimit.inspect(answer({ text: "x".repeat(40), contentType: "text/plain", cut: 1_572_864 }), spec),
    ).toEqual({
      failures: [
        "the answer's body is over 1572864 bytes (1.5 MiB); the suite read that much and stopped (FILE_LIBRARY_MAX_RESPONSE_BYTES)",
      ],
      warnings: [],
    });
  });

  it("passes a body read whole, with no warning", () => {
    expect(bodyWithinLimit.inspect(answer({ json: { a: 1 } }), spec)).toEqual({ failures: [], warnings: [] });
  });
});
