import { describe, expect, it } from "vitest";
import { statusCodeConformance } from "../../../contract-tests/checks/status-code-conformance.ts";
import { answer, spec } from "../../support/exchange-builder.ts";

describe("status_code_conformance", () => {
  it("fails a status the operation does not document, listing the documented ones", () => {
    expect(statusCodeConformance.inspect(answer({ status: 404, json: { message: "no" } }), spec)).toEqual({
      failures: [
        "status 404 is not documented for getFile (documented: 200, 401, 422, 429, 500, 501, 502, 503, 504, 505, 506, 507, 508, 510, 511)",
      ],
      warnings: [],
    });
    // 400 is documented for the update only.
    expect(statusCodeConformance.inspect(answer({ status: 400, json: {} }), spec).failures).toEqual([
      expect.stringContaining("status 400 is not documented for getFile"),
    ]);
  });

  it("passes a documented status, with no warning", () => {
    expect(
      statusCodeConformance.inspect(
        answer({ operationId: "updateFile", status: 400, json: { message: "not JSON" } }),
        spec,
      ),
    ).toEqual({ failures: [], warnings: [] });
    expect(statusCodeConformance.inspect(answer({ status: 200, json: {} }), spec)).toEqual({
      failures: [],
      warnings: [],
    });
  });
});
