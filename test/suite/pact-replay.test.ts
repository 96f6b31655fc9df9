// covers: contract-tests/pact/pact-as-recording.ts, contract-tests/runner/pact-replay.ts, contract-tests/runner/replay-command.ts
// `replay PACT_FILE`: a pact (told from a recording by its content) replayed against a deployment as a recording is,
// its provider states assumed present and said so.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { MatchersV3, PactV3 } from "@pact-foundation/pact";
import { looksLikePact } from "../../contract-tests/pact/pact-as-recording.ts";
import { FORMAT } from "../../contract-tests/recording/format.ts";
import { replayPactOr } from "../../contract-tests/runner/pact-replay.ts";
import { runReplayCommand } from "../../contract-tests/runner/replay-command.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { sandbox, SANDBOX_KEY } from "../support/sandbox.ts";

const { like, eachLike } = MatchersV3;
const FILES = "/studio/v1/library/files";
const TOKEN = "consumer-token-5h1";

let scratch: string;
let pactFile: string;

beforeAll(async () => {
  vi.stubEnv("PACT_DO_NOT_TRACK", "true");
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-pact-replay-"));
  const dir = path.join(scratch, "pacts");
  const withKey = { Authorization: `Bearer ${TOKEN}` };
  const json = { ...withKey, "Content-Type": "application/json" };
  const pact = new PactV3({ consumer: "web", provider: "file-library", dir, logLevel: "error" });
  pact
    .given("a file with id doc-1 exists")
    .uponReceiving("get file metadata")
    .withRequest({ method: "GET", path: `${FILES}/doc-1`, headers: withKey })
    .willRespondWith({
      status: 200,
      headers: { "Content-Type": "application/json" },
      body: { id: like("doc-1"), size: like(1), labels: eachLike("x"), created_at: like("2026-03-04T05:06:07Z") },
    });
  pact
    .given("a file with id doc-1 exists")
    .uponReceiving("get a download URL")
    .withRequest({ method: "GET", path: `${FILES}/doc-1/download`, headers: withKey })
    .willRespondWith({
      status: 200,
      headers: { "Content-Type": "text/plain" },
      body: "https://files.example.test/doc-1?sig=abc",
    });
  pact
    .given("a file with id doc-1 exists")
    .uponReceiving("update labels")
    .withRequest({ method: "PUT", path: `${FILES}/doc-1`, headers: json, body: { labels: eachLike("x") } })
    .willRespondWith({ status: 200 });
  pact
    .given("no file with id nope exists")
    .uponReceiving("get file metadata of a file that does not exist")
    .withRequest({ method: "GET", path: `${FILES}/nope`, headers: withKey })
    .willRespondWith({
      status: 422,
      headers: { "Content-Type": "application/json" },
      body: { code: like("file_not_found") },
    });
  pact
    .uponReceiving("get file metadata without a key")
    .withRequest({ method: "GET", path: `${FILES}/doc-1` })
    .willRespondWith({ status: 401 });
  await pact.executeTest(async (mock) => {
    for (const [method, target, init] of [
      ["GET", `${FILES}/doc-1`, { headers: withKey }],
      ["GET", `${FILES}/doc-1/download`, { headers: withKey }],
      ["PUT", `${FILES}/doc-1`, { headers: json, body: JSON.stringify({ labels: ["x"] }) }],
      ["GET", `${FILES}/nope`, { headers: withKey }],
      ["GET", `${FILES}/doc-1`, {}],
    ] as const) {
      await (await fetch(`${mock.url}${target}`, { method, ...init })).arrayBuffer();
    }
  });
  pactFile = path.join(dir, "web-file-library.json");
}, 60_000);
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** `replay` as the CLI dispatches it, its lines captured. */
async function replay(file: string, baseUrl: string, ...flags: string[]) {
  const reportDir = path.join(scratch, `reports-${Math.random().toString(36).slice(2)}`);
  const said: string[] = [];
  const spies = [vi.spyOn(console, "error"), vi.spyOn(console, "log")].map((spy) =>
    spy.mockImplementation((line: string) => void said.push(line)),
  );
  vi.stubEnv("FILE_LIBRARY_API_KEY", SANDBOX_KEY);
  try {
    const code = await replayPactOr(
      [file, "--base-url", baseUrl, "--report-dir", reportDir, ...flags],
      "file-library-contract",
      runReplayCommand,
      { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
    );
    return { code, output: said.join("\n"), reportDir };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describe("replay of a Pact file", () => {
  it("tells a pact from a recording and a HAR by its content", async () => {
    const line = {
      format: FORMAT,
      seq: 1,
      method: "GET",
      target: `${FILES}/doc-1`,
      operation: "getFile",
      request: { auth: "key", headers: {}, body: null },
      response: { status: 200, headers: {}, body: null },
      findings: [],
    };
    const files = {
      "rec.jsonl": `${JSON.stringify(line)}\n`,
      "compact.json": JSON.stringify({ consumer: { name: "a" }, provider: { name: "b" }, interactions: [] }),
      "app.har": '{\n "log": {}\n}',
    };
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(scratch, name), text);
    expect(await looksLikePact(path.join(scratch, "rec.jsonl"))).toBe(false);
    expect(await looksLikePact(path.join(scratch, "compact.json"))).toBe(true);
    expect(await looksLikePact(pactFile)).toBe(true);
    expect(await looksLikePact(path.join(scratch, "app.har"))).toBe(false);
    expect(await looksLikePact(path.join(scratch, "no-such-file"))).toBe(false);
  });

  it("replays a pact-js pact against the sandbox: it holds, the update left out (read-only), the states assumed and said", {
    timeout: 60_000,
  }, async () => {
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
    try {
      const run = await replay(pactFile, sb.baseUrl);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain(
        "is a pact between web and file-library: its 5 HTTP interaction(s) are replayed as lines 1 to 5; provider states assumed present (not set up by the replay; the sandbox's --fixtures makes them so): a file with id doc-1 exists; no file with id nope exists",
      );
      expect(run.output).toContain("left out: 1 update(s) not replayed: a read-only replay");
      expect(run.output).toMatch(/passed: 5 exchanges, 0 duplicates, 4 replayed, 0 break\(s\)/);
      const summary = JSON.parse(await readFile(path.join(run.reportDir, "replay-summary.json"), "utf8")) as {
        recording: string;
        pact: { statesAssumed: string[] };
      };
      expect(summary.recording).toBe(pactFile);
      expect(summary.pact.statesAssumed).toEqual(["a file with id doc-1 exists", "no file with id nope exists"]);
      expect(await readFile(path.join(run.reportDir, "replay-summary.md"), "utf8")).toContain(
        "Provider states assumed present, not set up: `a file with id doc-1 exists`, `no file with id nope exists`.",
      );
      // The consumer's token is never sent: the replay's key is, and only the interaction without one got 401.
      expect(sb.logs.filter((l) => / 401 /.test(l))).toHaveLength(1);
      expect(sb.logs.filter((l) => l.startsWith(`GET ${FILES}/doc-1 200`))).toHaveLength(1);
    } finally {
      await sb.close();
    }
  });

  it("breaks where the deployment no longer serves what the pact relies on, naming the interaction's line", {
    timeout: 60_000,
  }, async () => {
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, fault: "metadata-size-as-string" });
    try {
      const run = await replay(pactFile, sb.baseUrl, "--write-checks");
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(
        /BREAK \(consumer\) line 1: GET \/studio\/v1\/library\/files\/doc-1 as_the_app_saw_it: \$\.size was a number/,
      );
      expect(run.output).toMatch(
        /BREAK \(service\) line 1: GET \/studio\/v1\/library\/files\/doc-1 response_schema_conformance/,
      );
    } finally {
      await sb.close();
    }
  });

  it("exits 2 on a pact it cannot read, naming the line", async () => {
    const bad = path.join(scratch, "bad-pact.json");
    await writeFile(bad, '{\n  "consumer": {"name": "a"},\n  "interactions": [,]\n}\n');
    const run = await replay(bad, "http://127.0.0.1:9");
    expect(run.code).toBe(2);
    expect(run.output, run.output).toMatch(/cannot start: .*bad-pact\.json:3:\d+: not JSON/);
  });
});
