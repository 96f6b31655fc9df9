// covers: contract-tests/checks/auth-required.ts, contract-tests/checks/file-state.ts
// "With write checks each of those updates adds a label, and the file is read back with the key: an update applied
// without the key fails, whatever it answered, and the file is put back" (docs/checking-a-server.md, auth_required;
// docs/decisions.md, D03), read from a real write run and from the server's own state after it.
import { describe, expect, it } from "vitest";
import { stripVTControlCharacters } from "node:util";
import { UNAUTHORIZED_LABEL } from "../../contract-tests/checks/auth-required.ts";
import { failedChecks, liveOptions, runContractSuite, SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { sandbox, storedMetadata } from "../support/sandbox.ts";

describe("auth_required with write checks, against a server that applies an update made without the key", {
  timeout: 120_000,
}, () => {
  it("fails, and leaves the file's labels and publicUrl as they were", async () => {
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, fault: "update-applied-without-key" });
    try {
      const before = (await storedMetadata(sb.baseUrl, "doc-1")) as Record<string, unknown>;
      // auth_required alone: no other check's restore (nor file_left_as_found's read) runs after it.
      const run = await runContractSuite(liveOptions(sb.baseUrl, { writeChecks: true, checks: ["auth_required"] }));
      const after = (await storedMetadata(sb.baseUrl, "doc-1")) as Record<string, unknown>;

      const check = run.summary.checks.find((c) => c.operation === "updateFile" && c.check === "auth_required");
      expect(check?.state, run.output).toBe("failed");
      // The first update without the key was applied: the server's own read with the key showed the label it added.
      expect(check?.failures.map((f) => f.problem)).toEqual([
        `an update without Authorization (HTTP 401) was applied: getFile with the key shows the label ${JSON.stringify(UNAUTHORIZED_LABEL)} it added`,
      ]);
      expect(failedChecks(run)).toEqual(["auth_required"]);
      expect(stripVTControlCharacters(run.output)).toContain("✗ updateFile auth_required");
      expect(run.exitCode).toBe(1);

      // Put back: what the server stores is what it stored before the run.
      expect(before.labels).toEqual(["a", "b"]);
      expect(before.publicUrl).toBe("https://cdn.example.test/report.txt");
      expect({ labels: after.labels, publicUrl: after.publicUrl }).toEqual({
        labels: before.labels,
        publicUrl: before.publicUrl,
      });
      expect(after).toEqual(before);
    } finally {
      await sb.close();
    }
  });
});
