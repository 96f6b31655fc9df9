// covers: contract-tests/runner/preflight.ts, contract-tests/run/startup-read.ts, contract-tests/run/startup-read-record.ts, contract-tests/run-suite.ts, contract-tests/run/run-checks.ts
// The runner's start-up read takes the server's first answer: it is judged like every other (docs/decisions.md,
// D22), so a server hostile on its first answer alone fails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failedChecks, liveOptions, runContractSuite, SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { hostileFirstAnswer, type FIRST_ANSWERS } from "../support/hostile-first-answer.ts";
import { sandbox } from "../support/sandbox.ts";

let sb: Awaited<ReturnType<typeof sandbox>>;
beforeAll(async () => {
  sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
});
afterAll(() => sb.close());

const cases: Array<[keyof typeof FIRST_ANSWERS, string, RegExp]> = [
  ["huge-body", "body_within_limit", /the answer's body is over 1048576 bytes/],
  ["gzip-bomb", "body_within_limit", /the answer's body is over 1048576 bytes/],
  ["invalid-utf8", "json_well_formed", /UTF-8/],
  ["redirect-loop", "status_code_conformance", /302/],
  ["short-body", "metadata_of_requested_file", /the run's start-up read of the file got no answer: .*broke off/],
];

describe("a server hostile on its first answer only, read-only", { timeout: 120_000 }, () => {
  it.each(cases)("%s: fails %s, exit 1", async (kind, check, problem) => {
    const server = await hostileFirstAnswer(kind, sb.baseUrl);
    try {
      const run = await runContractSuite(liveOptions(server.origin));
      expect(run.exitCode, run.output).toBe(1);
      expect(failedChecks(run), run.output).toEqual([check]);
      const failure = run.summary.checks.find((c) => c.check === check && c.state === "failed")!.failures[0]!;
      expect(failure.problem).toMatch(problem);
      expect(failure.evidence?.curl ?? failure.noAnswer?.curl).toMatch(
        /^curl -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/studio\/v1\/library\/files\/doc-1'/,
      );
    } finally {
      await server.close();
    }
  });
});

describe("a start-up read that got no answer, when metadata_of_requested_file is not selected", {
  timeout: 120_000,
}, () => {
  it("fails the first selected check of the catalogue instead, exit 1", async () => {
    const server = await hostileFirstAnswer("short-body", sb.baseUrl);
    try {
      const run = await runContractSuite(
        liveOptions(server.origin, { checks: ["auth_required", "download_url_valid"] }),
      );
      expect(run.exitCode, run.output).toBe(1);
      expect(failedChecks(run)).toEqual(["auth_required"]);
    } finally {
      await server.close();
    }
  });
});
