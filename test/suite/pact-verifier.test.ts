// covers: contract-tests/pact/export-pact.ts, contract-tests/runner/pact-command.ts
// A recording of an app's real traffic, exported as a pact, verified by Pact's own verifier (its Rust core, from npm):
// it holds against the sandbox, also one whose values differ from the recording's, and breaks on a fault that drops or
// retypes what the app relied on, naming the interaction.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Verifier } from "@pact-foundation/pact";
import { startProxy } from "../../contract-tests/index.ts";
import { API_KEY_PLACEHOLDER } from "../../contract-tests/pact/export-pact.ts";
import { runPactCommand } from "../../contract-tests/runner/pact-command.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { sandbox } from "../support/sandbox.ts";

// The key the app was recorded with, and the one each verified deployment has: the pact holds neither.
const RECORDED_KEY = "pact-rec-Key_7w!k2";
const DEPLOYED_KEY = "pact-dep-Key_3q~x8";
const FILES = "/studio/v1/library/files";

let scratch: string;
let pactFile: string;
let pactV3File: string;
let exportOutput: string;

/** What an app does through the proxy: reads doc-1 (twice), its download URL, two updates (the second puts it back), an unknown id, one read without the key. */
async function appTraffic(base: string): Promise<number[]> {
  const send = async (target: string, init: RequestInit & { key?: string | null } = {}) => {
    const { key = RECORDED_KEY, headers, ...rest } = init;
    const answer = await fetch(`${base}${target}`, {
      ...rest,
      headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(headers as Record<string, string>) },
    });
    await answer.arrayBuffer();
    return answer.status;
  };
  const json = { "content-type": "application/json" };
  return [
    await send(`${FILES}/doc-1`),
    await send(`${FILES}/doc-1`),
    await send(`${FILES}/doc-1/download`),
    await send(`${FILES}/doc-1`, { method: "PUT", headers: json, body: JSON.stringify({ labels: ["from-the-app"] }) }),
    await send(`${FILES}/doc-1`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ labels: ["a", "b"], publicUrl: "https://cdn.example.test/report.txt" }),
    }),
    await send(`${FILES}/no-such-file`),
    await send(`${FILES}/doc-1`, { key: null }),
  ];
}

beforeAll(async () => {
  vi.stubEnv("PACT_DO_NOT_TRACK", "true");
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-pact-verifier-"));
  const recording = path.join(scratch, "app.jsonl");
  const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: RECORDED_KEY });
  try {
    const proxy = await startProxy({
      upstream: sb.baseUrl,
      reportDir: path.join(scratch, "proxy"),
      record: recording,
      env: { FILE_LIBRARY_API_KEY: RECORDED_KEY },
      say: () => {},
    });
    try {
      expect(await appTraffic(proxy.url)).toEqual([200, 200, 200, 200, 200, 422, 401]);
    } finally {
      await proxy.stop();
    }
  } finally {
    await sb.close();
  }
  pactFile = path.join(scratch, "pacts", "web-app.json");
  const said: string[] = [];
  const spy = vi.spyOn(console, "error").mockImplementation((line: string) => void said.push(line));
  const code = await runPactCommand(
    ["export", recording, "--consumer", "web-app", "-o", pactFile],
    "file-library-contract",
    { FILE_LIBRARY_API_KEY: RECORDED_KEY },
  );
  pactV3File = path.join(scratch, "pacts", "web-app-v3.json");
  const codeV3 = await runPactCommand(
    ["export", recording, "--consumer", "web-app", "--pact-version", "3", "-o", pactV3File],
    "file-library-contract",
    {},
  );
  spy.mockRestore();
  exportOutput = said.join("\n");
  expect([code, codeV3], exportOutput).toEqual([0, 0]);
}, 60_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Pact's verifier against a sandbox of `config`, the key given as Pact's docs say; resolves with whether it passed and what it said. */
async function verify(
  config: Parameters<typeof sandbox>[0],
  file = pactFile,
): Promise<{ passed: boolean; text: string; failed: string[] }> {
  // Stubbed per test: the config unstubs the environment before each one. Pact's core reports usage without it.
  vi.stubEnv("PACT_DO_NOT_TRACK", "true");
  const sb = await sandbox({ apiKey: DEPLOYED_KEY, ...config });
  try {
    const output = await new Verifier({
      providerBaseUrl: sb.baseUrl,
      pactUrls: [file],
      customProviderHeaders: [`Authorization: Bearer ${DEPLOYED_KEY}`],
      logLevel: "error",
    }).verifyProvider();
    return { passed: true, text: output, failed: [] };
  } catch (error) {
    // The verifier rejects with its result as JSON: each failed interaction, by its states and description, and why.
    const text = (error as Error).message;
    const { errors } = JSON.parse(text) as {
      errors: Array<{ interaction: string; mismatch: { mismatches: Array<{ path?: string; mismatch: string }> } }>;
    };
    return {
      passed: false,
      text,
      failed: errors.map(
        (e) => `${e.interaction}: ${e.mismatch.mismatches.map((m) => `${m.path} ${m.mismatch}`).join("; ")}`,
      ),
    };
  } finally {
    await sb.close();
  }
}

describe("a recording exported as a pact, verified by Pact's own verifier", () => {
  it("exports the app's distinct requests with the key, the key in no part of the pact", async () => {
    const text = await readFile(pactFile, "utf8");
    const pact = JSON.parse(text) as {
      interactions: Array<{ description: string; request: { headers: Record<string, string[]> } }>;
    };
    expect(pact.interactions.map((i) => i.description)).toEqual([
      "get file metadata",
      "get a download URL",
      "update labels",
      "update publicUrl and labels",
      "get file metadata of a file that does not exist",
    ]);
    expect(
      pact.interactions.every((i) => i.request.headers.Authorization?.[0] === `Bearer ${API_KEY_PLACEHOLDER}`),
    ).toBe(true);
    expect(text).not.toContain(RECORDED_KEY);
    expect(exportOutput).toContain("5 interaction(s) from 7 exchange(s) (1 duplicate(s))");
    expect(exportOutput).toContain("left out: 1 distinct request(s) sent without the key");
  });

  it("passes against the sandbox the app was recorded on, with another key", { timeout: 60_000 }, async () => {
    const run = await verify({ fixturesFile: SANDBOX_FIXTURES });
    expect(run.passed, run.text).toBe(true);
  });

  it("passes as specification 3 too", { timeout: 60_000 }, async () => {
    expect(JSON.parse(await readFile(pactV3File, "utf8")).metadata.pactSpecification.version).toBe("3.0.0");
    const run = await verify({ fixturesFile: SANDBOX_FIXTURES }, pactV3File);
    expect(run.passed, run.text).toBe(true);
    expect(run.text).toContain('"description":"update publicUrl and labels"');
  });

  it("passes against a deployment whose values all differ from the recording's", { timeout: 60_000 }, async () => {
    const fixtures = path.join(scratch, "other-values.json");
    await writeFile(
      fixtures,
      JSON.stringify([
        {
          id: "doc-1",
          name: "quarterly.pdf",
          content: "another content, longer",
          labels: [],
          created_at: "2025-06-07T08:09:10Z",
          publicUrl: "https://elsewhere.example.test/q.pdf",
        },
      ]),
    );
    const run = await verify({ fixturesFile: fixtures });
    expect(run.passed, run.text).toBe(true);
  });

  it.each([
    [
      "metadata-missing-labels",
      /^Verifying a pact between web-app and file-library Given a file with id doc-1 exists - get file metadata: \$ Actual map is missing the following keys: labels$/,
    ],
    [
      "metadata-size-as-string",
      /^Verifying a pact between web-app and file-library Given a file with id doc-1 exists - get file metadata: \$\.size Expected '5' \(String\) to be the same type as 5 \(Integer\)$/,
    ],
    [
      "download-relative-url",
      /^Verifying a pact between web-app and file-library Given a file with id doc-1 exists - get a download URL: \$ Expected '\/sandbox\/content\/doc-1\?\S+' to match/,
    ],
  ])("fails against the sandbox with fault %s, naming the interaction", { timeout: 60_000 }, async (fault, named) => {
    const run = await verify({ fixturesFile: SANDBOX_FIXTURES, fault });
    expect(run.passed).toBe(false);
    // Only the interaction the fault breaks fails, named by its state and description.
    expect(run.failed, run.text).toEqual([expect.stringMatching(named)]);
  });
});
