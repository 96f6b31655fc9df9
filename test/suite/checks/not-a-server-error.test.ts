import { describe, expect, it } from "vitest";
import { notAServerError } from "../../../contract-tests/checks/not-a-server-error.ts";
import { answer, spec } from "../../support/exchange-builder.ts";

const judge = (status: number) => notAServerError.inspect(answer({ status, json: { message: "x" } }), spec);

describe("not_a_server_error", () => {
  it("fails any 5xx, documented or not, saying the status", () => {
    expect(judge(500)).toEqual({ failures: ["the server failed with HTTP 500"], warnings: [] });
    expect(judge(599)).toEqual({ failures: ["the server failed with HTTP 599"], warnings: [] });
  });

  it("passes every status below 500, with no warning", () => {
    for (const status of [200, 401, 422, 499]) expect(judge(status)).toEqual({ failures: [], warnings: [] });
  });
});
