import { describe, expect, it } from "vitest";
import { noSecretEcho } from "../../../contract-tests/checks/no-secret-echo.ts";
import { answer, spec } from "../../support/exchange-builder.ts";

const KEY = "the-api-key-1234";

describe("no_secret_echo", () => {
  it("fails an answer that sends the key back, naming where (the body, a header), the key redacted", () => {
    const ex = answer({ json: { echo: `Bearer ${KEY}` }, headers: { "x-debug": KEY }, secrets: [KEY] });
    const found = noSecretEcho.inspect(ex, spec);
    expect(found).toEqual({
      failures: ["the API key came back in the body, header x-debug (shown here redacted)"],
      warnings: [],
    });
    expect(JSON.stringify(found)).not.toContain(KEY);
  });

  it("passes an answer without the key, with no warning", () => {
    expect(noSecretEcho.inspect(answer({ json: { echo: "nothing" }, secrets: [KEY] }), spec)).toEqual({
      failures: [],
      warnings: [],
    });
  });
});
