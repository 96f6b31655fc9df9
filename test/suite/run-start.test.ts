// covers: contract-tests/runner/plan.ts, contract-tests/runner/start.ts, contract-tests/runner/preflight.ts, contract-tests/runner/reachability.ts, contract-tests/run-suite.ts, contract-tests/runner/command.ts
// One start for every runner: runSuite, the published CLI and npm run contract check the same things before the first
// check, and a run that cannot start exits 2 with the same one line, never a list of failed checks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { exitCodeOf } from "../../lib/process.ts";
import { closedPort } from "../support/closed-port.ts";
import {
  environmentWithoutSettings,
  liveEnvironment,
  runContractSuite,
  SANDBOX_FIXTURES,
} from "../support/contract-suite.ts";
import { startScript } from "../support/processes.ts";
import { sandbox, SANDBOX_KEY } from "../support/sandbox.ts";
import type { SuiteOptions } from "../../contract-tests/index.ts";

/** Runs a command line of the suite (the published CLI, or npm run contract's script) with only these settings. */
async function commandLine(script: string, args: string[], env: Record<string, string | undefined>) {
  const child = startScript(script, args, { ...environmentWithoutSettings(), ...env });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk));
  return { code: await exitCodeOf(child), stdout, stderr };
}

let sb: Awaited<ReturnType<typeof sandbox>>;
let unreachable: string;
beforeAll(async () => {
  sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
  unreachable = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(() => sb.close());

// Each cause as runSuite's options; the command lines get the same as environment variables.
const causes: Array<[string, () => SuiteOptions, RegExp]> = [
  [
    "a refused key",
    () => ({ baseUrl: sb.baseUrl, apiKey: "a-rotated-key-0000", fileId: "doc-1" }),
    /^the server refused FILE_LIBRARY_API_KEY \(HTTP 401 to GET \/studio\/v1\/library\/files\/<file id>\): check that the key is current/,
  ],
  [
    "a file id the server does not know",
    () => ({ baseUrl: sb.baseUrl, apiKey: SANDBOX_KEY, fileId: "doc-404" }),
    /^file id "doc-404" was not found on http:\/\/127\.0\.0\.1:\d+ \(HTTP 422 .*\): give the id of an existing file with --file-id or FILE_LIBRARY_FILE_ID\.$/,
  ],
  [
    "an unreachable server",
    () => ({ baseUrl: unreachable, apiKey: SANDBOX_KEY, fileId: "doc-1" }),
    /^the server at http:\/\/127\.0\.0\.1:\d+ is unreachable \(.*ECONNREFUSED.*\); check FILE_LIBRARY_BASE_URL or --base-url\.$/,
  ],
  [
    "no base URL",
    () => ({ apiKey: SANDBOX_KEY, fileId: "doc-1" }),
    /^no server to check: give its base URL with --base-url URL or FILE_LIBRARY_BASE_URL/,
  ],
  [
    "an unknown check",
    () => ({ baseUrl: sb.baseUrl, apiKey: SANDBOX_KEY, fileId: "doc-1", checks: ["no_such_check"] }),
    /^FILE_LIBRARY_CHECKS names unknown check\(s\) no_such_check; see --list-checks$/,
  ],
  [
    "a check a read-only run cannot run",
    () => ({ baseUrl: sb.baseUrl, apiKey: SANDBOX_KEY, fileId: "doc-1", checks: ["update_persisted"] }),
    /^FILE_LIBRARY_CHECKS selects a check that cannot run as set up: update_persisted needs write checks: FILE_LIBRARY_WRITE_CHECKS=1$/,
  ],
  [
    "checks that only judge other checks' answers",
    () => ({ baseUrl: sb.baseUrl, apiKey: SANDBOX_KEY, fileId: "doc-1", checks: ["json_well_formed"] }),
    /^FILE_LIBRARY_CHECKS selects json_well_formed, which only judges the answers to other checks' requests: add a check that sends requests \(see --list-checks\)$/,
  ],
  [
    "an exclusion that leaves nothing a read-only run can send",
    () => ({
      baseUrl: sb.baseUrl,
      apiKey: SANDBOX_KEY,
      fileId: "doc-1",
      excludeChecks: [
        "metadata_of_requested_file",
        "positive_data_acceptance",
        "negative_data_rejection",
        "unknown_id_rejected",
        "auth_required",
        "metadata_size_matches_content",
        "download_url_valid",
      ],
    }),
    /^FILE_LIBRARY_EXCLUDE_CHECKS leaves no check that sends requests as this run is set up \(update_persisted, update_changes_only_its_fields, omitted_fields_kept, file_left_as_found cannot run here\): exclude fewer checks$/,
  ],
  [
    "a step summary in a folder that does not exist",
    () => ({
      baseUrl: sb.baseUrl,
      apiKey: SANDBOX_KEY,
      fileId: "doc-1",
      stepSummaryFile: "/nonexistent/step-summary.md",
    }),
    /^GITHUB_STEP_SUMMARY names \/nonexistent\/step-summary\.md, in a folder that does not exist: GitHub Actions sets it to a file of its own, so unset it, or point it at a file in a folder that exists$/,
  ],
  [
    "a spec that cannot be read",
    () => ({ baseUrl: sb.baseUrl, apiKey: SANDBOX_KEY, fileId: "doc-1", specFile: "/nonexistent/openapi.json" }),
    /^The bundled spec \/nonexistent\/openapi\.json is missing: point FILE_LIBRARY_SPEC at/,
  ],
];

describe.concurrent("a run that cannot start: runSuite and the published CLI say the same, with exit 2", {
  timeout: 60_000,
}, () => {
  it.each(causes)("%s", async (_, options, reason) => {
    const run = await runContractSuite({ env: environmentWithoutSettings(), ...options() });
    expect(run.exitCode).toBe(2);
    expect(run.summary.stopped).toEqual({ reason: expect.stringMatching(reason), atStart: true });
    expect(run.summary.checks).toEqual([]);
    // What a pipeline reads from the reports folder says the same.
    const written = JSON.parse(
      await readFile(path.join(run.reportDir, "contract-summary.json"), "utf8"),
    ) as typeof run.summary;
    expect(written.stopped).toEqual(run.summary.stopped);

    const cli = await commandLine("contract-tests/cli.ts", [], liveEnvironment("", options()));
    expect(cli.code).toBe(2);
    expect(cli.stderr.trim().split("\n")).toEqual([
      `file-library-contract: cannot start: ${run.summary.stopped!.reason}`,
    ]);
    expect(cli.stdout).not.toMatch(/FAILED|passed/);
  });
});

describe.concurrent("npm run contract against a live server that refuses the setting", { timeout: 90_000 }, () => {
  it.each(causes.slice(0, 2))("%s: exit 2 and the same one line", async (_, options, reason) => {
    const run = await commandLine("scripts/contract.ts", [], liveEnvironment("", options()));
    expect(run.code).toBe(2);
    const ours = run.stderr.split("\n").filter((line) => line.startsWith("contract: "));
    expect(ours).toEqual([expect.stringMatching(new RegExp(`^contract: cannot start: ${reason.source.slice(1)}`))]);
    expect(run.stdout).not.toMatch(/FAILED/);
  });
});

describe("once the preflight passed, the checks that judge 401 and 422 run in full", { timeout: 60_000 }, () => {
  it("a read-only run counts the preflight read among its requests, and runs auth_required and unknown_id_rejected", async () => {
    const run = await runContractSuite({
      env: environmentWithoutSettings(),
      baseUrl: sb.baseUrl,
      apiKey: SANDBOX_KEY,
      fileId: "doc-1",
    });
    expect(run.exitCode, run.output).toBe(0);
    const states = Object.fromEntries(
      run.summary.checks
        .filter((c) => ["auth_required", "unknown_id_rejected"].includes(c.check))
        .map((c) => [`${c.operation} ${c.check}`, c.state]),
    );
    expect(Object.values(states)).toEqual(Array(6).fill("passed"));
    const sent = run.summary.checks.reduce((n, c) => n + c.requests, 0);
    // Every exchange of a check, plus the preflight read (the signed URL's fetches are requests of no operation).
    expect(run.summary.totals.requests).toBeGreaterThan(sent);
    expect(run.summary.totals.requests).toBeLessThanOrEqual(100);
  });
});

describe("before its first request, the CLI says what it checks", { timeout: 60_000 }, () => {
  it("names the target and how many checks will run, as many as the run then reports", async () => {
    const cli = await commandLine(
      "contract-tests/cli.ts",
      ["--report-dir", await mkdtemp(path.join(os.tmpdir(), "file-library-plan-"))],
      liveEnvironment(sb.baseUrl),
    );
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
    const lines = cli.stdout.split("\n");
    const plan = lines.findIndex((line) => line.startsWith("── contract suite against"));
    const firstCheck = lines.findIndex((line) => /^ {2}[✓✗!-] /.test(line));
    expect(plan).toBeGreaterThanOrEqual(0);
    expect(plan).toBeLessThan(firstCheck);
    const [, count] = /: (\d+) checks, \d+ sending requests of their own and \d+ judging every answer$/.exec(
      lines[plan]!,
    )!;
    expect(lines[plan]).toContain(`the live server ${sb.baseUrl} (read-only)`);
    const total = lines.find((line) => /^contract: \d+ passed/.test(line))!;
    const [, passed] = /^contract: (\d+) passed, 0 failed/.exec(total)!;
    expect(Number(count)).toBe(Number(passed));
  });
});
