// covers: contract-tests/run/run-context.ts, lib/redact-secrets.ts
// "A key encoded twice or three times is redacted ... the suite's reports" (CHANGELOG 2.0.0; docs/decisions.md, D29),
// read from a real run: a server whose unknown-id answer breaks the schema and quotes the key encoded twice and three
// times, so that the failure's evidence (its body excerpt) carries it into every report and the console.
import { describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { jsonAnswer } from "../../sandbox/core/plain.ts";
import type { Wrapper } from "../../sandbox/testing/index.ts";
import { liveOptions, runContractSuite, SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { sandbox } from "../support/sandbox.ts";

// Three characters a path escapes: each layer of encoding spells it differently.
const KEY = "sk_Abc+def/ghi=";
const TWICE = encodeURIComponent(encodeURIComponent(KEY));
const THRICE = encodeURIComponent(TWICE);

/** An unknown id's 422 with a `code` of the wrong type (a schema failure) and a message that quotes the key encoded. */
const quotesTheKey: Wrapper = (service) => async (request) => {
  const answer = await service(request);
  if (request.method !== "GET" || answer.status !== 422) return answer;
  return jsonAnswer(422, { code: true, message: `No file for ${TWICE}, asked as ${THRICE}` });
};

describe("the suite's reports and output with the key encoded twice and three times in an answer", {
  timeout: 120_000,
}, () => {
  it("redact it everywhere the failure's evidence goes", async () => {
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: KEY, wrap: quotesTheKey });
    const run = await runContractSuite(
      liveOptions(sb.baseUrl, { apiKey: KEY, checks: ["unknown_id_rejected", "response_schema_conformance"] }),
    ).finally(() => sb.close());
    const schema = run.summary.checks.find(
      (c) => c.operation === "getFile" && c.check === "response_schema_conformance",
    );
    expect(schema?.state, run.output).toBe("failed");
    // The body was shown, the key in it redacted at each layer.
    expect(schema?.failures.map((f) => f.evidence?.bodyExcerpt).join("\n")).toContain(
      "No file for [REDACTED], asked as [REDACTED]",
    );
    const reports = ["contract-summary.json", "contract-junit.xml", "contract-coverage.md", "contract-coverage.json"];
    const texts = [
      run.output,
      ...(await Promise.all(reports.map((r) => readFile(path.join(run.reportDir, r), "utf8")))),
    ];
    for (const text of texts)
      for (const secret of [KEY, encodeURIComponent(KEY), TWICE, THRICE])
        expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
  });
});
