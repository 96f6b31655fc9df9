// covers: contract-tests/recording/, contract-tests/runner/replay-command.ts, contract-tests/proxy/start-proxy.ts
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startProxy } from "../../contract-tests/index.ts";
import { proxyHelp } from "../../contract-tests/runner/proxy-command.ts";
import { FORMAT, type RecordedExchange } from "../../contract-tests/recording/format.ts";
import { runReplayCommand } from "../../contract-tests/runner/replay-command.ts";
import { replayRecording } from "../../contract-tests/recording/replay.ts";
import { defaultSpecFile } from "../../contract-tests/locations.ts";
import { loadSuiteSpec } from "../../contract-tests/run/spec.ts";
import { closedPort } from "../support/closed-port.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { sandbox, storedMetadata } from "../support/sandbox.ts";
import { documentShapedServer } from "../support/document-shaped-server.ts";

// A key no other text holds, with characters that JSON, URLs and shells treat apart.
const KEY = "rec-Key_9f3!q7~Zx2";
const FILES = "/studio/v1/library/files";

let scratch: string;
let recording: string;
let proxyOutput: string[];

/** What an app does, sent through the proxy: reads (one twice), the download, an update put back, an unknown id, a wrong key, a path not the service's. */
async function appTraffic(base: string): Promise<string[]> {
  const send = async (target: string, init: RequestInit & { key?: string | null } = {}) => {
    const { key = KEY, headers, ...rest } = init;
    const answer = await fetch(`${base}${target}`, {
      ...rest,
      headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(headers as Record<string, string>) },
    });
    await answer.arrayBuffer();
    return `${init.method ?? "GET"} ${target} ${answer.status}`;
  };
  const json = { "content-type": "application/json" };
  return [
    await send(`${FILES}/doc-1`),
    await send(`${FILES}/doc-1`),
    await send(`${FILES}/doc-1/download`),
    await send(`${FILES}/doc-1`, { method: "PUT", headers: json, body: JSON.stringify({ labels: ["from-the-app"] }) }),
    await send(`${FILES}/doc-1`),
    await send(`${FILES}/doc-1`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ labels: ["a", "b"], publicUrl: "https://cdn.example.test/report.txt" }),
    }),
    await send(`${FILES}/no-such-file`),
    await send(`${FILES}/doc-1`, { key: null }),
    await send(`${FILES}/doc-1`, { key: "not-the-key-7" }),
    await send(`/health`),
  ];
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-recording-"));
  recording = path.join(scratch, "app.jsonl");
  const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: KEY });
  proxyOutput = [];
  try {
    const proxy = await startProxy({
      upstream: sb.baseUrl,
      reportDir: path.join(scratch, "proxy"),
      record: recording,
      env: { FILE_LIBRARY_API_KEY: KEY },
      say: (line) => proxyOutput.push(line),
    });
    try {
      expect(await appTraffic(proxy.url)).toEqual([
        `GET ${FILES}/doc-1 200`,
        `GET ${FILES}/doc-1 200`,
        `GET ${FILES}/doc-1/download 200`,
        `PUT ${FILES}/doc-1 200`,
        `GET ${FILES}/doc-1 200`,
        `PUT ${FILES}/doc-1 200`,
        `GET ${FILES}/no-such-file 422`,
        `GET ${FILES}/doc-1 401`,
        `GET ${FILES}/doc-1 401`,
        "GET /health 404",
      ]);
    } finally {
      await proxy.stop();
    }
  } finally {
    await sb.close();
  }
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

const lines = async (file = recording) =>
  (await readFile(file, "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as RecordedExchange);

/** Runs the replay command in this process; its lines and exit code. */
async function replay(args: string[], env: Record<string, string | undefined> = { FILE_LIBRARY_API_KEY: KEY }) {
  const output: string[] = [];
  const err = vi.spyOn(console, "error").mockImplementation((line: string) => void output.push(line));
  const log = vi.spyOn(console, "log").mockImplementation((line: string) => void output.push(line));
  try {
    const reportDir = await mkdtemp(path.join(scratch, "reports-"));
    const code = await runReplayCommand([...args, "--report-dir", reportDir], "file-library-contract", env);
    return { code, output: output.join("\n"), reportDir };
  } finally {
    err.mockRestore();
    log.mockRestore();
  }
}

/** Replays the app's recording against a new sandbox (with a fault, if named); the sandbox's doc-1 afterwards. */
async function replayAgainst(fault: string | undefined, flags: string[] = [], file = recording) {
  const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: KEY, ...(fault ? { fault } : {}) });
  try {
    const run = await replay([file, "--base-url", sb.baseUrl, ...flags]);
    return { ...run, doc1: await storedMetadata(sb.baseUrl, "doc-1", KEY), sandboxLog: sb.logs };
  } finally {
    await sb.close();
  }
}

describe("proxy --record", () => {
  it("writes one line per exchange, in the documented format, with the operation, the bodies and the findings", async () => {
    const recorded = await lines();
    expect(
      recorded.map((l) => `${l.seq} ${l.method} ${l.target} ${l.operation} ${l.request.auth} ${l.response.status}`),
    ).toEqual([
      `1 GET ${FILES}/doc-1 getFile key 200`,
      `2 GET ${FILES}/doc-1 getFile key 200`,
      `3 GET ${FILES}/doc-1/download getFileDownloadUrl key 200`,
      `4 PUT ${FILES}/doc-1 updateFile key 200`,
      `5 GET ${FILES}/doc-1 getFile key 200`,
      `6 PUT ${FILES}/doc-1 updateFile key 200`,
      `7 GET ${FILES}/no-such-file getFile key 422`,
      `8 GET ${FILES}/doc-1 getFile none 401`,
      `9 GET ${FILES}/doc-1 getFile other 401`,
      "10 GET /health null key 404",
    ]);
    for (const line of recorded) expect(line.format).toBe(FORMAT);
    expect(recorded[3]!.request).toEqual({
      auth: "key",
      headers: { "content-type": "application/json", accept: "*/*" },
      body: { text: '{"labels":["from-the-app"]}' },
    });
    expect(JSON.parse((recorded[4]!.response.body as { text: string }).text)).toMatchObject({
      id: "doc-1",
      labels: ["from-the-app"],
    });
    expect(recorded[4]!.response.headers["content-type"]).toMatch(/^application\/json/);
    // The app's own findings are recorded with their exchange: no key sent, and /health is no operation of the spec.
    expect(recorded.map((l) => l.findings.map((f) => `${f.side} ${f.check}`).join())).toEqual([
      "",
      "",
      "",
      "",
      "",
      "",
      "",
      "app auth_sent",
      "",
      "app operation_exists",
    ]);
  });

  it("holds no key, nor a near miss of it", async () => {
    const text = await readFile(recording, "utf8");
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("not-the-key-7");
    expect(text).not.toMatch(/"authorization"/i);
  });

  it("redacts the key in the target, the headers the service reads and an echoed body; a body past the cap is elided with its size and sha256", async () => {
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: KEY });
    const file = path.join(scratch, "echo.jsonl");
    try {
      const proxy = await startProxy({
        upstream: sb.baseUrl,
        reportDir: path.join(scratch, "echo"),
        record: file,
        env: { FILE_LIBRARY_API_KEY: KEY },
        say: () => {},
      });
      try {
        const headers = {
          authorization: `Bearer ${KEY}`,
          "content-type": "application/json",
          accept: `application/json;k=${KEY}`,
        };
        // The key as a label: the service echoes it in its answer and in every read after.
        await (
          await fetch(`${proxy.url}${FILES}/doc-2?token=${KEY}`, {
            method: "PUT",
            headers,
            body: JSON.stringify({ labels: [KEY] }),
          })
        ).arrayBuffer();
        await (await fetch(`${proxy.url}${FILES}/doc-2`, { headers })).arrayBuffer();
        // A field named as a secret is blanked whatever it holds, as the reports do.
        await (
          await fetch(`${proxy.url}${FILES}/doc-2`, {
            method: "PUT",
            headers,
            body: JSON.stringify({ labels: [], apiKey: "opaque" }),
          })
        ).arrayBuffer();
        await (
          await fetch(`${proxy.url}${FILES}/doc-1`, {
            method: "PUT",
            headers,
            body: JSON.stringify({ labels: Array.from({ length: 9000 }, (_, i) => `label-${i}`) }),
          })
        ).arrayBuffer();
      } finally {
        await proxy.stop();
      }
    } finally {
      await sb.close();
    }
    const text = await readFile(file, "utf8");
    expect(text).not.toContain(KEY);
    const [update, read, secretField, big] = await lines(file);
    expect(update!.target).toBe(`${FILES}/doc-2?token=[REDACTED]`);
    expect(update!.request.headers.accept).toBe("application/json;k=[REDACTED]");
    expect(JSON.parse((update!.request.body as { text: string }).text)).toEqual({ labels: ["[REDACTED]"] });
    expect(JSON.parse((secretField!.request.body as { text: string }).text)).toEqual({
      labels: [],
      apiKey: "[REDACTED]",
    });
    expect(JSON.parse((read!.response.body as { text: string }).text).labels).toEqual(["[REDACTED]"]);
    expect(big!.request.body).toEqual({
      elided: "over 65536 bytes",
      bytes: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect((big!.request.body as { bytes: number }).bytes).toBeGreaterThan(65_536);
  });

  it("a recording the disk refuses: the traffic passes, the proxy says how many exchanges are missing, and exits 2", async () => {
    const proxied = async (record: string) => {
      const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: KEY });
      const said: string[] = [];
      const reportDir = await mkdtemp(path.join(scratch, "disk-"));
      try {
        const proxy = await startProxy({
          upstream: sb.baseUrl,
          reportDir,
          record,
          env: { FILE_LIBRARY_API_KEY: KEY },
          say: (line) => said.push(line),
        });
        let run: Awaited<ReturnType<typeof proxy.stop>>;
        try {
          for (let i = 0; i < 3; i++)
            expect(
              (await fetch(`${proxy.url}${FILES}/doc-1`, { headers: { authorization: `Bearer ${KEY}` } })).status,
            ).toBe(200);
        } finally {
          run = await proxy.stop();
        }
        const summary = JSON.parse(await readFile(path.join(reportDir, "proxy-summary.json"), "utf8")) as unknown;
        return {
          run,
          said,
          summary,
          junit: await readFile(path.join(reportDir, "proxy-junit.xml"), "utf8"),
          markdown: await readFile(path.join(reportDir, "proxy-summary.md"), "utf8"),
        };
      } finally {
        await sb.close();
      }
    };
    // The same traffic recorded whole passes: the exit code below is the recording's.
    const whole = await proxied(path.join(scratch, "whole.jsonl"));
    expect([whole.run.exitCode, whole.run.summary.recordingIncomplete, whole.said]).toEqual([0, undefined, []]);
    // Linux's /dev/full opens, then refuses every write with ENOSPC, as a full disk does.
    const full = await proxied("/dev/full");
    const line =
      "the recording is incomplete: 3 exchange(s) not recorded (3 refused: ENOSPC: no space left on device, write)";
    expect(full.said).toEqual([`contract proxy: ${line}`]);
    expect(full.run.exitCode).toBe(2);
    expect(full.run.summary).toMatchObject({ verdict: "passed", exchanges: 3, recordingIncomplete: line });
    expect(full.summary).toEqual(JSON.parse(JSON.stringify(full.run.summary)));
    expect(full.junit).toContain(
      `<testsuite name="recording" tests="1" failures="1" skipped="0">\n    <testcase classname="recording" name="every exchange recorded">\n      <failure message="${line}"/>`,
    );
    const totals = (xml: string) => /<testsuites [^>]*tests="(\d+)" failures="(\d+)"/.exec(xml)!.slice(1).map(Number);
    const [[wholeTests, wholeFailures], [fullTests, fullFailures]] = [totals(whole.junit), totals(full.junit)];
    expect([fullTests! - wholeTests!, fullFailures! - wholeFailures!]).toEqual([1, 1]);
    expect(full.markdown).toContain(`**Recording incomplete:** ${line}.`);
    // And `proxy --help` says so, as docs/checking-a-server.md's exit codes do.
    const help = proxyHelp("file-library-contract").replace(/\s+/g, " ");
    expect(help).toContain(
      "or when --record left exchanges out of the recording (the disk refused them, or fell behind)",
    );
    expect(help).toMatch(
      /Exit codes: [^;]*; [^;]*; [^;]*; 2 the proxy could not start, the upstream answered nothing .*, or --record left exchanges out of the recording; 127 /,
    );
  });

  it("blanks the secret-named members of the app's bodies in its curl commands (stderr, proxy-junit.xml, proxy-summary.json) as in the recording", async () => {
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: KEY });
    const file = path.join(scratch, "secret-members.jsonl");
    const reportDir = await mkdtemp(path.join(scratch, "secret-members-"));
    const said: string[] = [];
    try {
      const proxy = await startProxy({
        upstream: sb.baseUrl,
        reportDir,
        record: file,
        env: { FILE_LIBRARY_API_KEY: KEY },
        say: (line) => said.push(line),
      });
      try {
        // A body the spec refuses (labels not a list): a finding, with the curl command that sends it again.
        const body = JSON.stringify({ labels: "x", token: "tok-Secret-771", nested: { password: "pw-Secret-882" } });
        const answer = await fetch(`${proxy.url}${FILES}/doc-1`, {
          method: "PUT",
          headers: {
            authorization: `Bearer ${KEY}`,
            "content-type": "application/json",
            "x-api-key": "hdr-Secret-993",
          },
          body,
        });
        await answer.arrayBuffer();
      } finally {
        await proxy.stop();
      }
    } finally {
      await sb.close();
    }
    const texts = {
      stderr: said.join("\n"),
      junit: await readFile(path.join(reportDir, "proxy-junit.xml"), "utf8"),
      summary: await readFile(path.join(reportDir, "proxy-summary.json"), "utf8"),
      recording: await readFile(file, "utf8"),
    };
    expect(texts.stderr).toContain("FINDING (app) updateFile request_body_valid");
    expect(texts.stderr).toContain(
      `--data-raw '{"labels":"x","token":"[REDACTED]","nested":{"password":"[REDACTED]"}}'`,
    );
    expect(texts.stderr).toContain(`-H 'x-api-key: [REDACTED]'`);
    for (const [name, text] of Object.entries(texts))
      for (const secret of ["tok-Secret-771", "pw-Secret-882", "hdr-Secret-993", KEY])
        expect(text, name).not.toContain(secret);
  });

  it("says no key percent-encoded in a path (either hex case, fully or partly encoded, once, twice or three times) and blanks a form body's secret-named parameters: stderr, the reports, the recording", async () => {
    // The key of the tester's report: three characters a path escapes.
    const key = "sk_Abc+def/ghi=";
    const escapeAll = (text: string) =>
      [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`).join("");
    const forms = {
      upper: encodeURIComponent(key),
      lower: encodeURIComponent(key).toLowerCase().replace("sk_abc", "sk_Abc"),
      full: escapeAll(key),
      partly: `%73${encodeURIComponent(key).slice(1)}`,
      // An id encoded by a client that encodes it again: `%25` is `%`.
      twice: encodeURIComponent(encodeURIComponent(key)),
      twiceLower: encodeURIComponent(encodeURIComponent(key)).toLowerCase().replace("sk_abc", "sk_Abc"),
      twiceAndOnce: "sk_Abc%252Bdef%2Fghi%3D",
      // And once more (a URL encoded again to be forwarded): three times, as far as the escapes are decoded.
      thrice: encodeURIComponent(encodeURIComponent(encodeURIComponent(key))),
    };
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: key });
    const file = path.join(scratch, "encoded-key.jsonl");
    const reportDir = await mkdtemp(path.join(scratch, "encoded-key-"));
    const said: string[] = [];
    try {
      const proxy = await startProxy({
        upstream: sb.baseUrl,
        reportDir,
        record: file,
        env: { FILE_LIBRARY_API_KEY: key },
        say: (line) => said.push(line),
      });
      try {
        const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
        // A body the spec refuses: a finding, with the curl command that sends it again to the path that holds the key.
        for (const id of Object.values(forms))
          await (
            await fetch(`${proxy.url}${FILES}/${id}`, { method: "PUT", headers, body: JSON.stringify({ labels: "x" }) })
          ).arrayBuffer();
        const form = { ...headers, "content-type": "application/x-www-form-urlencoded" };
        await (
          await fetch(`${proxy.url}${FILES}/doc-1`, {
            method: "PUT",
            headers: form,
            body: "token=FORMSECRET-888&labels=x",
          })
        ).arrayBuffer();
      } finally {
        await proxy.stop();
      }
    } finally {
      await sb.close();
    }
    const report = (name: string) => readFile(path.join(reportDir, name), "utf8");
    const texts = {
      stderr: said.join("\n"),
      junit: await report("proxy-junit.xml"),
      summary: await report("proxy-summary.json"),
      markdown: await report("proxy-summary.md"),
      recording: await readFile(file, "utf8"),
    };
    expect(texts.stderr).toContain(`${FILES}/[REDACTED]' -H`);
    expect(texts.stderr).toContain(`--data-raw 'token=[REDACTED]&labels=x'`);
    const recorded = await lines(file);
    expect(recorded.map((line) => line.target)).toEqual([
      ...Object.values(forms).map(() => `${FILES}/[REDACTED]`),
      `${FILES}/doc-1`,
    ]);
    expect(recorded.at(-1)!.request.body).toEqual({ text: "token=[REDACTED]&labels=x" });
    for (const [name, text] of Object.entries(texts)) {
      for (const secret of [...Object.values(forms), key, "FORMSECRET-888"])
        expect(text, `${name}: ${secret}`).not.toContain(secret);
      for (const secret of [...Object.values(forms), key])
        expect(text.toLowerCase(), `${name}: ${secret}`).not.toContain(secret.toLowerCase());
    }
  });

  it("a file it cannot write is a wrong setting: the proxy does not start", async () => {
    await expect(
      startProxy({
        upstream: "http://127.0.0.1:9",
        record: path.join(scratch, "no-such-folder", "x.jsonl"),
        env: {},
        say: () => {},
      }),
    ).rejects.toThrow(/^--record cannot write .*no-such-folder/);
  });
});

describe("replay", () => {
  it("passes the deployment the app was recorded against, read-only: the updates left out and said, nothing written", async () => {
    const run = await replayAgainst(undefined);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain("left out: 2 update(s) not replayed: a read-only replay (give --write-checks");
    expect(run.output).toMatch(
      /passed: 10 exchanges, 2 duplicates, 5 replayed, 0 break\(s\), 1 not the File Library's/,
    );
    expect(run.sandboxLog.filter((l) => /\bPUT\b/.test(l))).toEqual([]);
    expect(run.output).not.toContain(KEY);
    expect((await readdir(run.reportDir)).sort()).toEqual([
      "replay-junit.xml",
      "replay-summary.json",
      "replay-summary.md",
    ]);
    const summary = JSON.parse(await readFile(path.join(run.reportDir, "replay-summary.json"), "utf8"));
    expect(
      summary.rows.map(
        (r: { operation: string; status: number; recorded: number; stillServed: string }) =>
          `${r.operation} ${r.status} ${r.recorded} ${r.stillServed}`,
      ),
    ).toEqual([
      "getFile 200 3 yes",
      "getFileDownloadUrl 200 1 yes",
      "updateFile 200 2 not replayed",
      "getFile 422 1 yes",
      "getFile 401 2 yes",
    ]);
    const junit = await readFile(path.join(run.reportDir, "replay-junit.xml"), "utf8");
    expect(junit).toContain(
      '<testsuites name="file-library-contract replay" tests="5" failures="0" errors="0" skipped="1"',
    );
    expect(await readFile(path.join(run.reportDir, "replay-summary.md"), "utf8")).toContain(
      "| updateFile | 200 | 2 | 0 | 0 | not replayed | 2 |",
    );
  });

  it("with --write-checks replays the updates too, and puts the file back as it found it", async () => {
    const before = await replayAgainst(undefined);
    const run = await replayAgainst(undefined, ["--write-checks"]);
    expect(run.code, run.output).toBe(0);
    // The read after the app's first update (line 5) asks anew: it is no duplicate of line 1.
    expect(run.output).toMatch(/passed: 10 exchanges, 1 duplicates, 8 replayed, 0 break/);
    expect(run.sandboxLog.filter((l) => /\bPUT\b/.test(l)).length).toBe(3);
    expect(run.doc1).toEqual(before.doc1);
  });

  it.each([
    [
      "metadata-size-as-string",
      /BREAK \(consumer\) line 1: GET \/studio\/v1\/library\/files\/doc-1 as_the_app_saw_it: \$\.size was a number \(5\) for the app; the deployment sends a string \("5"\)/,
    ],
    [
      "metadata-missing-labels",
      /BREAK \(consumer\) line 1: GET \/studio\/v1\/library\/files\/doc-1 as_the_app_saw_it: \$\.labels is missing: the app got an array there/,
    ],
    [
      "unknown-id-404",
      /BREAK \(consumer\) line 7: GET \/studio\/v1\/library\/files\/no-such-file as_the_app_saw_it: the app got HTTP 422; the deployment answers HTTP 404/,
    ],
  ])(
    "fails a deployment with the fault %s, exit 1, naming the exchange, the side and a curl command",
    async (fault, named) => {
      const run = await replayAgainst(fault);
      expect(run.code, run.output).toBe(1);
      expect(run.output).toMatch(named);
      // The spec's side too: each fault breaks the schema or the documented statuses.
      expect(run.output).toMatch(/BREAK \(service\) line \d+: /);
      expect(run.output).toContain(`reproduce: curl -i -X GET 'http://`);
      expect(run.output).toContain('-H "Authorization: Bearer $FILE_LIBRARY_API_KEY"');
      expect(run.output).not.toContain(KEY);
      const junit = await readFile(path.join(run.reportDir, "replay-junit.xml"), "utf8");
      expect(junit).toMatch(/<failure message="as the app saw it, line \d+/);
      for (const report of await readdir(run.reportDir))
        expect(await readFile(path.join(run.reportDir, report), "utf8")).not.toContain(KEY);
    },
  );

  it("stops within the request budget: exit 2, with what was left out", async () => {
    const run = await replayAgainst(undefined, ["--max-requests", "2"]);
    expect(run.code, run.output).toBe(2);
    expect(run.output).toContain(
      "cannot finish: the request budget of 2 distinct requests (--max-requests) was spent before the recording's end: 3 request(s) not replayed",
    );
  });

  it("cannot start (exit 2, one line) without a key, with a refused key, a bad URL, an unreachable server, a missing or foreign file", async () => {
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: "another-key-entirely" });
    const foreign = path.join(scratch, "foreign.jsonl");
    await writeFile(foreign, `${JSON.stringify({ format: "file-library-recording/0", method: "GET", target: "/" })}\n`);
    const notJson = path.join(scratch, "not-json.jsonl");
    await writeFile(notJson, "GET /studio/v1/library/files/doc-1\n");
    try {
      const cases: Array<[string[], Record<string, string | undefined>, RegExp]> = [
        [[recording, "--base-url", sb.baseUrl], {}, /cannot start: FILE_LIBRARY_API_KEY is not set/],
        [
          [recording, "--base-url", sb.baseUrl],
          { FILE_LIBRARY_API_KEY: KEY },
          /cannot start: the server refused FILE_LIBRARY_API_KEY \(HTTP 401 to GET \/studio\/v1\/library\/files\/doc-1, which the app got 200 for\)/,
        ],
        [[recording, "--base-url", "ftp://example.test"], { FILE_LIBRARY_API_KEY: KEY }, /cannot start: --base-url /],
        [
          [recording, "--base-url", `http://127.0.0.1:${await closedPort()}`],
          { FILE_LIBRARY_API_KEY: KEY },
          /cannot start: the server at http:\/\/127\.0\.0\.1:\d+ is unreachable/,
        ],
        [
          [path.join(scratch, "none.jsonl"), "--base-url", sb.baseUrl],
          { FILE_LIBRARY_API_KEY: KEY },
          /cannot start: cannot read the recording .*none\.jsonl": no such file/,
        ],
        [
          [foreign, "--base-url", sb.baseUrl],
          { FILE_LIBRARY_API_KEY: KEY },
          /cannot start: .*foreign\.jsonl:1: format "file-library-recording\/0", this replay reads file-library-recording\/1/,
        ],
        [
          [notJson, "--base-url", sb.baseUrl],
          { FILE_LIBRARY_API_KEY: KEY },
          /cannot start: .*not-json\.jsonl:1: not JSON/,
        ],
        [["--base-url", sb.baseUrl], { FILE_LIBRARY_API_KEY: KEY }, /cannot start: give one recording \(FILE\), got 0/],
      ];
      for (const [args, env, message] of cases) {
        const run = await replay(args, env);
        expect(run.code, run.output).toBe(2);
        expect(run.output.split("\n"), run.output).toHaveLength(1);
        expect(run.output).toMatch(message);
        expect(run.output).not.toContain(KEY);
      }
    } finally {
      await sb.close();
    }
  });

  it("--help names every flag, the key's variable and the exit codes", async () => {
    const run = await replay(["--help"]);
    expect(run.code).toBe(0);
    for (const word of [
      "--base-url",
      "--write-checks",
      "--report-dir",
      "--max-requests",
      "FILE_LIBRARY_API_KEY",
      ".har",
      "Exit codes: 0",
      " 1 ",
      " 2 ",
    ])
      expect(run.output).toContain(word);
  });

  it("replays a HAR the same way: the File Library's requests only, the recorded origin and base path replaced by --base-url", async () => {
    // A HAR as browsers export it (HAR 1.2), made here from the app's recording: a Chromium-made one is in
    // test/suite/replay-har-chromium.test.ts when a browser is found.
    const har = await harOfRecording("app.har", (l) =>
      l.request.auth === "none" ? undefined : `Bearer ${l.request.auth === "key" ? KEY : "not-the-key-7"}`,
    );
    const sound = await replayAgainst(undefined, [], har);
    expect(sound.code, sound.output).toBe(0);
    // The page and /health are not the File Library's; the wrong key came as a bearer token the service refused.
    expect(sound.output).toMatch(/passed: 9 exchanges, 2 duplicates, 5 replayed, 0 break\(s\); reports/);
    const broken = await replayAgainst("metadata-missing-labels", [], har);
    expect(broken.code, broken.output).toBe(1);
    expect(broken.output).toMatch(
      /BREAK \(consumer\) line 2: GET \/studio\/v1\/library\/files\/doc-1 as_the_app_saw_it: \$\.labels is missing/,
    );
  });

  it.each([
    ["sanitized as Chrome exports it (no Authorization header at all)", () => undefined],
    [
      "with every token blanked by hand (Bearer [redacted by the browser user])",
      () => "Bearer [redacted by the browser user]",
    ],
  ])(
    "replays a HAR %s with the key where the app's answer shows it was authorized: exit 0 against a correct server",
    async (_, authorization) => {
      const har = await harOfRecording("sanitized.har", authorization);
      const run = await replayAgainst(undefined, [], har);
      expect(run.code, run.output).toBe(0);
      // The two 401s are one request now (no key told apart): 3 duplicates.
      expect(run.output).toMatch(/passed: 9 exchanges, 3 duplicates, 4 replayed, 0 break\(s\); reports/);
      // The 200s and the 422 (an unknown id: past the key check) went with the key, the 401s without it.
      expect(run.sandboxLog.filter((l) => / 401 /.test(l))).toHaveLength(1);
      expect(run.output).not.toContain(KEY);
    },
  );

  /** A HAR as browsers export it (HAR 1.2), made from the app's recording, each request's Authorization as `authorization` says. */
  async function harOfRecording(
    name: string,
    authorization: (l: RecordedExchange) => string | undefined,
  ): Promise<string> {
    const entries = (await lines()).map((l) => ({
      startedDateTime: l.at,
      time: l.durationMs,
      request: {
        method: l.method,
        url: `https://app.example.test/api${l.target}`,
        httpVersion: "HTTP/1.1",
        headers: [
          ...Object.entries(l.request.headers).map(([name, value]) => ({ name, value })),
          ...(authorization(l) === undefined ? [] : [{ name: "Authorization", value: authorization(l)! }]),
        ],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: -1,
        ...(l.request.body && "text" in l.request.body
          ? { postData: { mimeType: "application/json", text: l.request.body.text } }
          : {}),
      },
      response: {
        status: l.response.status,
        statusText: "",
        httpVersion: "HTTP/1.1",
        headers: Object.entries(l.response.headers).map(([name, value]) => ({ name, value })),
        cookies: [],
        content:
          l.response.body && "text" in l.response.body
            ? {
                size: l.response.body.text.length,
                mimeType: l.response.headers["content-type"] ?? "",
                text: l.response.body.text,
              }
            : { size: 0, mimeType: "" },
        redirectURL: "",
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 1, receive: 0 },
    }));
    const har = path.join(scratch, name);
    await writeFile(
      har,
      JSON.stringify({
        log: {
          version: "1.2",
          creator: { name: "test", version: "1" },
          entries: [
            { ...entries[0]!, request: { ...entries[0]!.request, url: "https://app.example.test/index.html" } },
            ...entries,
          ],
        },
      }),
    );
    return har;
  }

  it("interrupted (Ctrl-C) between two requests: sends nothing more, puts back the file it wrote, and says where it stopped", async () => {
    const interrupted = new AbortController();
    const puts: string[] = [];
    // Ctrl-C as the app's first update reaches the server.
    const sb = await sandbox({
      fixturesFile: SANDBOX_FIXTURES,
      apiKey: KEY,
      log: (line) => line.startsWith("PUT ") && (puts.push(line), interrupted.abort()),
    });
    try {
      const before = await storedMetadata(sb.baseUrl, "doc-1", KEY);
      const result = await replayRecording({
        file: recording,
        baseUrl: sb.baseUrl,
        apiKey: KEY,
        writeChecks: true,
        maxRequests: 100,
        spec: loadSuiteSpec(defaultSpecFile),
        limits: { maxResponseMs: 5_000, maxResponseBytes: 1_048_576, requestTimeoutMs: 10_000 },
        say: () => {},
        signal: interrupted.signal,
      });
      expect(result.stopped).toEqual({
        reason: "interrupted before line 5: the rest of the recording was not replayed",
        atStart: false,
      });
      expect(result.exitCode).toBe(2);
      expect(result.replayed).toBe(3);
      // The app's update, then the file put back.
      expect(puts).toHaveLength(2);
      expect(await storedMetadata(sb.baseUrl, "doc-1", KEY)).toEqual(before);
    } finally {
      await sb.close();
    }
  });
});

describe("replay against a server that answers as the service's own OpenAPI document says", () => {
  it("says the diagnosis first, on stderr and in its summaries, then each failing check once with its count", async () => {
    const recorded = await documentShapedServer();
    const file = path.join(scratch, "document-shaped.jsonl");
    try {
      const proxy = await startProxy({
        upstream: recorded.baseUrl,
        reportDir: path.join(scratch, "document-proxy"),
        record: file,
        env: { FILE_LIBRARY_API_KEY: recorded.apiKey },
        say: () => {},
      });
      const get = (target: string) =>
        fetch(`${proxy.url}${FILES}/${target}`, { headers: { authorization: `Bearer ${recorded.apiKey}` } }).then((a) =>
          a.arrayBuffer(),
        );
      // Three distinct reads of the one file (its UUID in two letter cases), one of them twice, and its download.
      for (const target of [
        recorded.fileId,
        recorded.fileId.toUpperCase(),
        recorded.fileId,
        `${recorded.fileId}/download`,
      ])
        await get(target);
      await proxy.stop();
    } finally {
      await recorded.close();
    }
    const server = await documentShapedServer();
    try {
      const run = await replay([file, "--base-url", server.baseUrl], { FILE_LIBRARY_API_KEY: server.apiKey });
      expect(run.code, run.output).toBe(1);
      const diagnosis =
        "this server answers the field names of the service's own OpenAPI document: fileId → id, sizeBytes → size, creationDate → created_at";
      const failures = run.output
        .split("\n")
        .filter((l) => /^file-library-contract replay: (DIAGNOSIS|BREAK|FAILED)/.test(l));
      expect(failures[0], run.output).toMatch(new RegExp(`^file-library-contract replay: DIAGNOSIS: ${diagnosis}`));
      // As they come: each failing check once, not one line per exchange (two reads broke each).
      const breaks = failures.filter((l) => l.includes(" BREAK "));
      expect(
        breaks.map((l) =>
          l
            .split(": ")
            .slice(1, 2)[0]!
            .replace(/ line \d+$/, ""),
        ),
      ).toEqual(["BREAK (service)", "BREAK (service)"]);
      // At the end: the diagnosis first again, then each failing check once, with its count.
      const end = failures.slice(failures.findLastIndex((l) => l.includes(": DIAGNOSIS: ")));
      expect(end.map((l) => l.replace(/, the first at .*/, ""))).toEqual([
        expect.stringContaining(diagnosis),
        "file-library-contract replay: FAILED (service) getFile response_schema_conformance: 2 break(s)",
        "file-library-contract replay: FAILED (service) getFile metadata_of_requested_file: 2 break(s)",
      ]);
      const json = JSON.parse(await readFile(path.join(run.reportDir, "replay-summary.json"), "utf8"));
      expect(Object.keys(json).slice(0, 2)).toEqual(["format", "diagnosis"]);
      expect(json.failedChecks.map((c: { check: string; count: number }) => [c.check, c.count])).toEqual([
        ["response_schema_conformance", 2],
        ["metadata_of_requested_file", 2],
      ]);
      const markdown = await readFile(path.join(run.reportDir, "replay-summary.md"), "utf8");
      expect(markdown.split("\n")[2]).toContain(`**Diagnosis:** ${diagnosis}`);
      expect(markdown).toContain("| service | getFile | response_schema_conformance | 2 | 1 |");
    } finally {
      await server.close();
    }
  });
});

describe("replay: issue 54's reproductions", () => {
  /** Records `traffic` through the proxy against a correct sandbox; the recording's path. */
  async function recorded(name: string, traffic: (base: string) => Promise<void>): Promise<string> {
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: KEY });
    const file = path.join(scratch, name);
    try {
      const proxy = await startProxy({
        upstream: sb.baseUrl,
        reportDir: path.join(scratch, `${name}-proxy`),
        record: file,
        env: { FILE_LIBRARY_API_KEY: KEY },
        say: () => {},
      });
      try {
        await traffic(proxy.url);
      } finally {
        await proxy.stop();
      }
    } finally {
      await sb.close();
    }
    return file;
  }
  const keyed = { authorization: `Bearer ${KEY}` };
  /** An app that reads doc-1, updates its labels, then reads it again. */
  const readUpdateRead = (base: string) =>
    (async () => {
      for (const init of [
        { headers: keyed },
        {
          method: "PUT",
          headers: { ...keyed, "content-type": "application/json" },
          body: JSON.stringify({ labels: ["set-by-the-app"] }),
        },
        { headers: keyed },
      ]) {
        expect((await fetch(`${base}${FILES}/doc-1`, init)).status).toBe(200);
      }
    })();

  it("a read after an update is no duplicate of the read before it: a deployment that drops every update fails (exit 1, update_persisted)", async () => {
    const file = await recorded("read-update-read.jsonl", readUpdateRead);
    const sound = await replayAgainst(undefined, ["--write-checks"], file);
    expect(sound.code, sound.output).toBe(0);
    expect(sound.output).toMatch(/passed: 3 exchanges, 0 duplicates, 3 replayed, 0 break\(s\)/);
    const dropping = await replayAgainst("labels-not-persisted", ["--write-checks"], file);
    expect(dropping.code, dropping.output).toBe(1);
    expect(dropping.output).toMatch(
      /BREAK \(service\) line 3: GET \/studio\/v1\/library\/files\/doc-1 update_persisted: /,
    );
    expect(dropping.output).toMatch(/failed: 3 exchanges, 0 duplicates, 3 replayed, [1-9]\d* break\(s\)/);
  });

  it("a file it cannot put back is a break on the line of its first update (1-based), its message whole in replay-summary.md", async () => {
    const file = await recorded("read-update-read-appended.jsonl", readUpdateRead);
    const run = await replayAgainst("labels-appended", ["--write-checks"], file);
    expect(run.code, run.output).toBe(1);
    const problem =
      /BREAK \(service\) line (\d+): PUT \/studio\/v1\/library\/files\/doc-1 file_left_as_found: (.*)\n/.exec(
        run.output,
      );
    expect(problem?.[1], run.output).toBe("2");
    // The problem says what the file was and what it is now: no report needs the curl command beside it to be read.
    const [before, after] = [
      { labels: ["a", "b"], publicUrl: "https://cdn.example.test/report.txt" },
      { labels: ["a", "b", "set-by-the-app", "a", "b"], publicUrl: "https://cdn.example.test/report.txt" },
    ];
    expect(problem![2]).toBe(
      `the replay could not put file "doc-1" back as it found it, ${JSON.stringify(before)}: the update that puts it back got HTTP 200, then a read showed ${JSON.stringify(after)}; it is left changed since line 2`,
    );
    const markdown = await readFile(path.join(run.reportDir, "replay-summary.md"), "utf8");
    expect(markdown).toContain(
      `| service | updateFile | file_left_as_found | 1 | 2 | PUT /studio/v1/library/files/doc-1 | ${problem![2]!.replace(/\|/g, "\\|")} |`,
    );
    const summary = JSON.parse(await readFile(path.join(run.reportDir, "replay-summary.json"), "utf8")) as {
      breaks: Array<{ line: number; check: string }>;
    };
    expect(summary.breaks.filter((b) => b.check === "file_left_as_found").map((b) => b.line)).toEqual([2]);
    expect(await readFile(path.join(run.reportDir, "replay-junit.xml"), "utf8")).toMatch(
      /<testcase classname="updateFile" name="file_left_as_found"[^>]*>\s*<failure message="by the spec, line 2 /,
    );
  });

  it("--max-requests 1 over 100 lines of 2 distinct requests: 1 distinct request left out and 98 duplicates, exit 2", async () => {
    const file = await recorded("two-requests.jsonl", async (base) => {
      for (let i = 0; i < 50; i++) {
        for (const target of [`${FILES}/doc-1`, `${FILES}/doc-1/download`])
          expect((await fetch(`${base}${target}`, { headers: keyed })).status).toBe(200);
      }
    });
    const run = await replayAgainst(undefined, ["--max-requests", "1"], file);
    expect(run.code, run.output).toBe(2);
    expect(run.output).toContain(
      "left out: 1 distinct request(s) not replayed: the request budget of 1 (--max-requests) was spent",
    );
    expect(run.output).toContain(
      "cannot finish: the request budget of 1 distinct requests (--max-requests) was spent before the recording's end: 1 request(s) not replayed",
    );
    expect(run.output).toMatch(/could not finish: 100 exchanges, 98 duplicates, 1 replayed, 0 break\(s\)/);
  });
});
