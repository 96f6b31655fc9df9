// covers: contract-tests/checks/positive-data-acceptance.ts, contract-tests/inputs/sdk-update-bodies.ts
// "positive_data_acceptance ... fails a server that refuses one [of the official SDKs' update bodies] or answers it
// with a 5xx" (docs/decisions.md, D05), read from a real write run: a sandbox that answers 500 to exactly one of them.
import { describe, expect, it } from "vitest";
import { stripVTControlCharacters } from "node:util";
import { errorAnswer } from "../../sandbox/core/plain.ts";
import type { Wrapper } from "../../sandbox/testing/index.ts";
import { failedChecks, liveOptions, runContractSuite, SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { sandbox } from "../support/sandbox.ts";

// The Python SDK's labels-only update, as the suite sends it for the live runs' file, doc-1 (labels ["a", "b"]): its first label beside one
// of the suite's own.
const BODY = JSON.stringify({ publicUrl: null, labels: ["a", "contract-check-sdk"] });
const SENDER = "the Python SDK's files.update(id, labels=...) 1.0.0 to 2.2.4, or with public_url=None later";

/** Answers 500 to an update whose body is BODY, exactly (members in that order); serves everything else. */
const failsOnTheBody =
  (answered: string[]): Wrapper =>
  (service) =>
  async (request) => {
    const body = new TextDecoder().decode(request.body);
    if (request.method !== "PUT" || body !== BODY) return service(request);
    answered.push(body);
    return errorAnswer(500, "internal_error", "Something went wrong.");
  };

describe("positive_data_acceptance against a server that answers an official SDK's update body with a 5xx", {
  timeout: 120_000,
}, () => {
  it("fails that check on updateFile, naming the body and who sends it, and the run exits 1", async () => {
    const answered: string[] = [];
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, wrap: failsOnTheBody(answered) });
    const run = await runContractSuite(liveOptions(sb.baseUrl, { writeChecks: true })).finally(() => sb.close());
    // The server answered 500 to that body alone, once: the run sent it as the SDK does.
    expect(answered).toEqual([BODY]);

    const problem = `${SENDER} sends ${BODY}; it got HTTP 500, expected 200`;
    const check = run.summary.checks.find(
      (c) => c.operation === "updateFile" && c.check === "positive_data_acceptance",
    );
    expect(check?.state, run.output).toBe("failed");
    expect(check?.failures).toEqual([expect.objectContaining({ problem })]);
    expect(check?.failures[0]?.evidence).toMatchObject({ operationId: "updateFile", method: "PUT", status: 500 });
    expect(check?.failures[0]?.evidence?.curl).toContain(`--data-raw '${BODY}'`);
    // On the console: the failed check's line, naming the body, then its curl, which sends that body.
    const lines = stripVTControlCharacters(run.output).split("\n");
    const at = lines.findIndex((l) => l.startsWith(`FAILED  updateFile positive_data_acceptance: ${problem} | PUT `));
    expect(at, run.output).toBeGreaterThan(-1);
    expect(lines[at + 1]).toMatch(/^ +reproduce: curl -i -X PUT /);
    expect(lines[at + 1]?.endsWith(` --data-raw '${BODY}'`)).toBe(true);
    // A 5xx is also not_a_server_error's failure; nothing else fails.
    expect(failedChecks(run).sort()).toEqual(["not_a_server_error", "positive_data_acceptance"]);
    expect(run.exitCode).toBe(1);
  });
});
