import { describe, expect, it } from "vitest";
import { responseHeadersConformance } from "../../../contract-tests/checks/response-headers-conformance.ts";
import { answer, metadataOf, spec, specWith } from "../../support/exchange-builder.ts";

const none = { failures: [], warnings: [] };

describe("response_headers_conformance", () => {
  it("passes an answer without the optional X-Request-Id, with no warning (decisions.md, D18)", () => {
    expect(responseHeadersConformance.inspect(answer({ json: metadataOf() }), spec)).toEqual(none);
  });

  it("passes a request id and a Retry-After that match their schemas", () => {
    const ex = answer({
      status: 429,
      json: { message: "slow down" },
      headers: { "x-request-id": "5b1925a2-5656", "retry-after": "2" },
    });
    expect(responseHeadersConformance.inspect(ex, spec)).toEqual(none);
  });

  it("fails a request id that breaks its schema, quoting the value and the rule it breaks", () => {
    const ex = answer({ json: metadataOf(), headers: { "x-request-id": "has space" } });
    expect(responseHeadersConformance.inspect(ex, spec)).toEqual({
      failures: ['header x-request-id: "has space" must match pattern "^[\\x21-\\x7E]+$"'],
      warnings: [],
    });
    const long = answer({ json: metadataOf(), headers: { "x-request-id": "r".repeat(201) } });
    expect(responseHeadersConformance.inspect(long, spec).failures).toEqual([
      expect.stringMatching(/^header x-request-id: "r+" must NOT have more than 200 characters$/),
    ]);
    const both = answer({ json: metadataOf(), headers: { "x-request-id": "r r".repeat(70) } });
    expect(responseHeadersConformance.inspect(both, spec).failures).toEqual([
      `header x-request-id: ${JSON.stringify("r r".repeat(70))} must NOT have more than 200 characters; must match pattern "^[\\x21-\\x7E]+$"`,
    ]);
  });

  it("fails a missing header the spec requires", () => {
    const strict = specWith((document) => {
      document.components.headers["X-Request-Id"].required = true;
    });
    expect(responseHeadersConformance.inspect(answer({ json: metadataOf() }), strict)).toEqual({
      failures: ["the required header x-request-id is missing"],
      warnings: [],
    });
  });

  it("says nothing of an undocumented status", () => {
    expect(
      responseHeadersConformance.inspect(
        answer({ status: 404, json: {}, headers: { "x-request-id": "has space" } }),
        spec,
      ),
    ).toEqual(none);
  });
});
