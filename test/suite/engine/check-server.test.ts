import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkServer } from "../../../contract-tests/engine/check-server.ts";
import { defaultSpecFile } from "../../../contract-tests/locations.ts";
import { readSettings, settingsEnvironment, type SuiteSettingsInput } from "../../../contract-tests/run/settings.ts";
import { FILE_ID, SANDBOX_FIXTURES, SEED } from "../../support/contract-suite.ts";
import { sandbox, SANDBOX_KEY } from "../../support/sandbox.ts";

/** A sandbox of its own (with a fault, if named) and the typed settings of a run against it: no environment, no child. */
async function target(fault?: string, extra: SuiteSettingsInput = {}) {
  const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, ...(fault ? { fault } : {}) });
  const reportDir = await mkdtemp(path.join(os.tmpdir(), "check-server-"));
  const input = {
    baseUrl: sb.baseUrl,
    apiKey: SANDBOX_KEY,
    fileId: FILE_ID,
    seed: SEED,
    writeChecks: true,
    specFile: defaultSpecFile,
    reportDir,
    ...extra,
  };
  return { sb, reportDir, settings: readSettings(settingsEnvironment(input)) };
}

describe("checkServer: the suite in this process", { timeout: 60_000 }, () => {
  it("runs two servers at once, each run with its own evidence: a fault found in one is no failure of the other", async () => {
    const [clean, faulty] = await Promise.all([target(), target("update-empties-the-file")]);
    try {
      const [passed, failed] = await Promise.all([checkServer(clean.settings), checkServer(faulty.settings)]);
      expect(passed.exitCode, passed.output).toBe(0);
      expect(passed.summary.totals.failed).toBe(0);
      expect(failed.exitCode).toBe(1);
      expect(failed.summary.checks.filter((c) => c.state === "failed").map((c) => c.check)).toContain(
        "update_changes_only_its_fields",
      );
      // Each run's requests are its own: the clean run counts none of the other's.
      expect(passed.summary.totals.requests).toBe(passed.summary.checks.reduce((n, c) => n + c.requests, 0));
      // The reports are written, and say what the run returned.
      expect(JSON.parse(await readFile(path.join(faulty.reportDir, "contract-summary.json"), "utf8"))).toEqual(
        failed.summary,
      );
    } finally {
      await Promise.all([clean.sb.close(), faulty.sb.close()]);
    }
  });

  it("prints as it runs: the seed first, a line per check, the summary last; the output it returns is the same text", async () => {
    const { sb, settings } = await target(undefined, { checks: ["auth_required"] });
    const printed: string[] = [];
    try {
      const run = await checkServer(settings, { output: (text) => printed.push(text) });
      expect(printed.join("")).toBe(run.output);
      expect(printed[0]).toBe(`contract: seed ${SEED} (replay with --seed ${SEED})\n`);
      expect(printed.filter((text) => text.includes("✓")).length).toBe(3);
      expect(printed.at(-1)).toContain("contract: ");
    } finally {
      await sb.close();
    }
  });

  it("stops when its signal aborts: it rejects with the reason and writes no summary", async () => {
    const { sb, settings, reportDir } = await target();
    const controller = new AbortController();
    try {
      const run = checkServer(settings, {
        signal: controller.signal,
        output: () => controller.abort(new Error("stopped by the test")),
      });
      await expect(run).rejects.toThrow("stopped by the test");
      await expect(readFile(path.join(reportDir, "contract-summary.json"))).rejects.toThrow();
    } finally {
      await sb.close();
    }
  });
});
