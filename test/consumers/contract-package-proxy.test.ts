// covers: contract-tests/cli.ts, contract-tests/runner/proxy-command.ts, contract-tests/runner/replay-command.ts, contract-tests/proxy/forward.ts, contract-tests/recording/recorder.ts
// The proxy's round-two promises and a browser's HAR, through the packed contract package as a pipeline installs it:
// `npx --no-install file-library-contract proxy --upstream URL -- <command>` against real upstreams, and `replay`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { execFileSync, type ChildProcess } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { exitCodeOf, runCommand, startChild, waitForOutput } from "../../lib/process.ts";
import { browserFor } from "../support/browser.ts";
import { chromiumHar } from "../support/chromium-har.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { installInto } from "../support/packages.ts";
import { PACK_WAIT_MS, packed } from "../support/packed.ts";
import { rawUpstream } from "../support/raw-upstream.ts";
import { sandbox, SANDBOX_KEY, storedMetadata } from "../support/sandbox.ts";

const chrome = browserFor("test/consumers/contract-package-proxy.test.ts");

/**
 * The app: one request through FILE_LIBRARY_BASE_URL with node:http (which shows interim answers and the raw reason
 * phrase), a JSON body sent on `Expect: 100-continue` when one is given; prints one line of what it saw.
 */
const PROBE = `import { request } from "node:http";
const [method, target, body] = process.argv.slice(2);
const interim = [];
const headers = { authorization: "Bearer " + process.env.FILE_LIBRARY_API_KEY };
if (body) Object.assign(headers, { "content-type": "application/json", "content-length": Buffer.byteLength(body), expect: "100-continue" });
const req = request(process.env.FILE_LIBRARY_BASE_URL + target, { method, headers });
req.on("information", (info) => interim.push(info.statusCode));
req.on("continue", () => req.end(body));
req.on("response", (res) => {
  let text = "";
  res.setEncoding("latin1");
  res.on("data", (chunk) => (text += chunk));
  res.on("end", () => console.log("app " + JSON.stringify({ interim, status: res.statusCode, reason: Buffer.from(res.statusMessage, "latin1").toString("utf8"), body: text })));
});
req.on("error", (error) => { console.log("app error " + error.message); process.exitCode = 3; });
if (!body) req.end();
`;

/** An app that reads doc-1 twice, correctly, then (with an argument) is killed by SIGKILL. */
const READS = `const url = process.env.FILE_LIBRARY_BASE_URL + "/studio/v1/library/files/doc-1";
for (let i = 0; i < 2; i++) console.log("app GET", (await fetch(url, { headers: { authorization: "Bearer " + process.env.FILE_LIBRARY_API_KEY } })).status);
if (process.argv[2] === "then-die") process.kill(process.pid, "SIGKILL");
`;

/**
 * An app that handles Ctrl-C: one read, then on SIGINT one more read (after the proxy was told to stop), then waits
 * for the proxy's reports (15 s at most) while it still runs, and says how long they took.
 */
const STOPPING = `import { existsSync } from "node:fs";
import { join } from "node:path";
const url = process.env.FILE_LIBRARY_BASE_URL + "/studio/v1/library/files/doc-1";
const headers = { authorization: "Bearer " + process.env.FILE_LIBRARY_API_KEY };
console.log("app first", (await fetch(url, { headers })).status);
process.once("SIGINT", async () => {
  const started = Date.now();
  const answer = await fetch(url, { headers });
  console.log("app after the signal", answer.status, JSON.stringify(await answer.text()));
  while (!existsSync(join(process.argv[2], "proxy-summary.json")) && Date.now() - started < 15_000) await new Promise((resolve) => setTimeout(resolve, 50));
  console.log("app saw the reports:", existsSync(join(process.argv[2], "proxy-summary.json")), Date.now() - started, "ms");
  process.exit(0);
});
setInterval(() => {}, 1_000);
`;

/** An app that reads doc-1, updates its labels, then reads it again. */
const READ_UPDATE_READ = `const url = process.env.FILE_LIBRARY_BASE_URL + "/studio/v1/library/files/doc-1";
const headers = { authorization: "Bearer " + process.env.FILE_LIBRARY_API_KEY, "content-type": "application/json" };
for (const init of [{ headers }, { method: "PUT", headers, body: JSON.stringify({ labels: ["set-by-the-app"] }) }, { headers }]) console.log("app", init.method ?? "GET", (await fetch(url, init)).status);
`;

const BODY = '{"id":"doc-1","name":"a.txt","size":1,"created_at":"2026-01-02T03:04:05Z","labels":["a"]}';
/** A 200 with metadata and this reason phrase, written as its UTF-8 bytes. */
const answer200 = (reason: string) =>
  Buffer.concat([
    Buffer.from(`HTTP/1.1 200 ${reason}`, "utf8"),
    Buffer.from(
      `\r\ncontent-type: application/json\r\nx-request-id: r1\r\ncontent-length: ${BODY.length}\r\n\r\n${BODY}`,
      "latin1",
    ),
  ]);

let scratch: string;
let project: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-contract-proxy-"));
  project = await installInto(path.join(scratch, "pipeline"), await packed("contract"));
  await writeFile(path.join(project, "probe.mjs"), PROBE);
  await writeFile(path.join(project, "reads.mjs"), READS);
  await writeFile(path.join(project, "stopping.mjs"), STOPPING);
  await writeFile(path.join(project, "read-update-read.mjs"), READ_UPDATE_READ);
}, PACK_WAIT_MS);
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Runs the installed CLI through npx in the project folder, with the key given. */
const cli = (args: string[], key: string) =>
  runCommand("npx", ["--no-install", "--loglevel=error", "file-library-contract", ...args], {
    cwd: project,
    env: {
      ...process.env,
      FILE_LIBRARY_BASE_URL: "",
      FILE_LIBRARY_FILE_ID: "",
      FILE_LIBRARY_WRITE_CHECKS: "",
      FILE_LIBRARY_API_KEY: key,
    },
  });

interface ProxySummary {
  exchanges: number;
  findings: Array<{ side: string; operation: string; check: string }>;
}

/** `proxy --upstream URL -- command` with its reports in a fresh folder: exit code, output, the reports' text, the summary. */
async function proxyRun(upstream: string, command: string[], key = SANDBOX_KEY, flags: string[] = []) {
  const reportDir = await mkdtemp(path.join(project, "reports-"));
  const result = await cli(
    ["proxy", "--upstream", upstream, "--report-dir", path.basename(reportDir), ...flags, "--", ...command],
    key,
  );
  const names = (await readdir(reportDir)).sort();
  const reports = await Promise.all(
    names.map(async (name) => ({ name, text: await readFile(path.join(reportDir, name), "utf8") })),
  );
  const summaryText = reports.find((r) => r.name === "proxy-summary.json")?.text;
  return { ...result, names, reports, summary: summaryText ? (JSON.parse(summaryText) as ProxySummary) : undefined };
}

/** What the probe app printed. */
const seenByApp = (output: string) =>
  JSON.parse(/^app (\{.*\})$/m.exec(output)?.[1] ?? "null") as {
    interim: number[];
    status: number;
    reason: string;
    body: string;
  } | null;

const REPORTS = ["proxy-junit.xml", "proxy-summary.json", "proxy-summary.md"];
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  // The last started first: a process before the servers it talks to.
  for (const stop of stops.splice(0).reverse()) await stop();
});
/** A server (a sandbox, a raw upstream) stopped after the test, whatever it does. */
async function stoppedAfter<T extends { close(): Promise<void> }>(starting: Promise<T>): Promise<T> {
  const server = await starting;
  stops.push(() => server.close());
  return server;
}

describe("the packed contract package's proxy, between an app and real upstreams", { timeout: 60_000 }, () => {
  it("a reason phrase outside Latin-1 (200 Très bien ✓): the app gets its answer, the run ends with its reports and the command's status", async () => {
    const upstream = await stoppedAfter(rawUpstream((socket) => socket.end(answer200("Très bien ✓"))));
    const run = await proxyRun(upstream.origin, [
      process.execPath,
      "probe.mjs",
      "GET",
      "/studio/v1/library/files/doc-1",
    ]);
    expect(seenByApp(run.output), run.output).toEqual({ interim: [], status: 200, reason: "Très bien ✓", body: BODY });
    expect(run.code, run.output).toBe(0);
    expect(run.names).toEqual(REPORTS);
    expect(run.summary).toMatchObject({ exchanges: 1, findings: [] });
  });

  it("103 Early Hints before the 200: the app gets the hint as an interim answer, then the 200 and its body", async () => {
    const upstream = await stoppedAfter(
      rawUpstream((socket) =>
        socket.end(
          Buffer.concat([
            Buffer.from("HTTP/1.1 103 Early Hints\r\nlink: </style.css>; rel=preload\r\n\r\n"),
            answer200("OK"),
          ]),
        ),
      ),
    );
    const run = await proxyRun(upstream.origin, [
      process.execPath,
      "probe.mjs",
      "GET",
      "/studio/v1/library/files/doc-1",
    ]);
    expect(seenByApp(run.output), run.output).toEqual({ interim: [103], status: 200, reason: "OK", body: BODY });
    expect(run.code, run.output).toBe(0);
    expect(run.summary).toMatchObject({ exchanges: 1, findings: [] });
  });

  it("Expect: 100-continue: the app gets its 100 and the 200, no 502, and the upstream gets the body", async () => {
    const sb = await stoppedAfter(sandbox({ fixturesFile: SANDBOX_FIXTURES }));
    const run = await proxyRun(sb.baseUrl, [
      process.execPath,
      "probe.mjs",
      "PUT",
      "/studio/v1/library/files/doc-1",
      JSON.stringify({ labels: ["sent-on-100-continue"] }),
    ]);
    expect(seenByApp(run.output), run.output).toMatchObject({ interim: [100], status: 200 });
    expect(await storedMetadata(sb.baseUrl, "doc-1")).toMatchObject({ labels: ["sent-on-100-continue"] });
    expect(run.summary).toMatchObject({ exchanges: 1, findings: [] });
    expect(run.code, run.output).toBe(0);
  });

  it("the key inside an undocumented path (GET /api/keys/<key>/ping): reported as the app's, the key in no report nor output", async () => {
    const sb = await stoppedAfter(sandbox({ fixturesFile: SANDBOX_FIXTURES }));
    const run = await proxyRun(sb.baseUrl, [process.execPath, "probe.mjs", "GET", `/api/keys/${SANDBOX_KEY}/ping`]);
    expect(seenByApp(run.output)?.status, run.output).toBe(404);
    // The upstream got the path as the app sent it; its log, as the proxy's reports, shows the key redacted.
    expect(sb.logs.join("\n"), "the upstream got the path as the app sent it").toContain(
      "GET /api/keys/[REDACTED]/ping 404",
    );
    expect(sb.logs.join("\n")).not.toContain(SANDBOX_KEY);
    expect(run.names).toEqual(REPORTS);
    expect(run.summary?.exchanges).toBe(1);
    expect(run.summary?.findings.length, run.output).toBeGreaterThan(0);
    expect(run.code, run.output).toBe(1);
    // The proxy's own lines: the app prints the sandbox's 404, which names the path as it was asked.
    const proxyLines = run.output
      .split("\n")
      .filter((line) => !line.startsWith("app "))
      .join("\n");
    expect(proxyLines).toContain("FINDING (app) GET /api/keys/");
    expect(proxyLines).not.toContain(SANDBOX_KEY);
    for (const report of run.reports) {
      expect(report.text, report.name).toContain("/api/keys/");
      expect(report.text, report.name).not.toContain(SANDBOX_KEY);
    }
  });

  it("a short key (test), two correct reads against the sandbox: exit 0, no finding", async () => {
    const sb = await stoppedAfter(sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: "test" }));
    const run = await proxyRun(sb.baseUrl, [process.execPath, "reads.mjs"], "test");
    expect(run.output.match(/^app GET 200$/gm), run.output).toHaveLength(2);
    expect(run.summary, run.output).toMatchObject({ exchanges: 2, findings: [] });
    expect(run.code, run.output).toBe(0);
  });

  it("--record to a disk that refuses every write (/dev/full): exit 2 and a line saying so; a command that failed keeps its own code", async () => {
    const sb = await stoppedAfter(sandbox({ fixturesFile: SANDBOX_FIXTURES, apiKey: "test" }));
    const line =
      "contract proxy: the recording is incomplete: 2 exchange(s) not recorded (2 refused: ENOSPC: no space left on device, write)";
    const refused = await proxyRun(sb.baseUrl, [process.execPath, "reads.mjs"], "test", ["--record", "/dev/full"]);
    expect(refused.output.match(/^app GET 200$/gm), refused.output).toHaveLength(2);
    expect(refused.output.split("\n")).toContain(line);
    expect(refused.summary).toMatchObject({
      exchanges: 2,
      findings: [],
      recordingIncomplete: line.replace("contract proxy: ", ""),
    });
    expect(refused.code, refused.output).toBe(2);
    const died = await proxyRun(sb.baseUrl, [process.execPath, "reads.mjs", "then-die"], "test", [
      "--record",
      "/dev/full",
    ]);
    expect(died.output.split("\n")).toContain(line);
    expect(died.code, died.output).toBe(137);
  });

  it("a command killed by SIGKILL after its reads: exit 137, as a shell reports it, with the reports written", async () => {
    const sb = await stoppedAfter(sandbox({ fixturesFile: SANDBOX_FIXTURES }));
    const run = await proxyRun(sb.baseUrl, [process.execPath, "reads.mjs", "then-die"]);
    expect(run.output.match(/^app GET 200$/gm), run.output).toHaveLength(2);
    expect(run.code, run.output).toBe(137);
    expect(run.names).toEqual(REPORTS);
    expect(run.summary).toMatchObject({ exchanges: 2, findings: [] });
  });
});

describe("the packed contract package's proxy when it is told to stop", { timeout: 60_000 }, () => {
  /** The installed CLI started as a pipeline's shell starts it (no npx between: the signals reach it). */
  function startCli(args: string[]) {
    const child = startChild(
      process.execPath,
      [path.join(project, "node_modules", "file-library-contract", "dist", "cli.js"), ...args],
      {
        cwd: project,
        env: { ...process.env, FILE_LIBRARY_API_KEY: SANDBOX_KEY },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    stops.push(async () => {
      child.kill("SIGKILL");
      await exitCodeOf(child);
    });
    return { child, output: () => output };
  }
  /** The exit code, or "still running" once `ms` have passed: a proxy that hangs fails the test instead of its timeout. */
  const exitWithin = (child: ChildProcess, ms: number) =>
    Promise.race([
      exitCodeOf(child),
      new Promise<string>((resolve) => setTimeout(() => resolve(`still running after ${ms} ms`), ms).unref()),
    ]);

  /** `proxy --record` to a FIFO whose reader never reads, past the pipe's 64 KiB: the URL, the report folder and the reader's fd. */
  async function recordingToAStalledPipe() {
    const sb = await stoppedAfter(sandbox({ fixturesFile: SANDBOX_FIXTURES }));
    const fifo = path.join(await mkdtemp(path.join(scratch, "fifo-")), "recording.jsonl");
    execFileSync("mkfifo", [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    stops.push(async () => closeSync(reader));
    const reportDir = await mkdtemp(path.join(scratch, "stalled-"));
    const proxy = startCli(["proxy", "--upstream", sb.baseUrl, "--report-dir", reportDir, "--record", fifo]);
    const [, url] = await waitForOutput(proxy.child, /listening on (http:\/\/\S+),/, 30_000);
    for (let i = 0; i < 4; i++) {
      const answer = await fetch(`${url}/studio/v1/library/files/doc-1`, {
        method: "PUT",
        headers: { authorization: `Bearer ${SANDBOX_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ labels: [`${i}`.repeat(60_000)] }),
      });
      await answer.arrayBuffer();
    }
    return { ...proxy, reportDir };
  }

  it("--record to a pipe nobody reads: Ctrl-C still ends the run within its bound, exit 2, the recording named incomplete, the reports written", async () => {
    const { child, output, reportDir } = await recordingToAStalledPipe();
    const started = performance.now();
    child.kill("SIGINT");
    expect(await exitWithin(child, 20_000), output()).toBe(2);
    expect(performance.now() - started).toBeLessThan(12_000);
    expect(output()).toMatch(
      /contract proxy: the recording is incomplete: [1-4] exchange\(s\) not recorded \([1-4] still waiting for ".*recording\.jsonl" when the proxy stopped: it took no more within 5 s\)/,
    );
    const summary = JSON.parse(await readFile(path.join(reportDir, "proxy-summary.json"), "utf8")) as {
      exchanges: number;
      recordingIncomplete?: string;
    };
    expect(summary.exchanges).toBe(4);
    expect(summary.recordingIncomplete).toMatch(/^the recording is incomplete: /);
  });

  it("--record to a pipe nobody reads: a second signal (SIGTERM) stops it at once, the reports written, exit 130", async () => {
    const { child, output, reportDir } = await recordingToAStalledPipe();
    const draining = waitForOutput(child, /SIGINT: finishing the exchanges in flight/);
    child.kill("SIGINT");
    await draining;
    const started = performance.now();
    child.kill("SIGTERM");
    expect(await exitWithin(child, 20_000), output()).toBe(130);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(output()).toMatch(/the recording is incomplete: .*the proxy was stopped at once \(a second signal\)/);
    expect((await readdir(reportDir)).sort()).toEqual(REPORTS);
  });

  it("with a command that handles Ctrl-C: new requests get a 503 at once, the reports are written within the 5 s while the command still runs, and the refused request makes the run exit 2", async () => {
    const sb = await stoppedAfter(sandbox({ fixturesFile: SANDBOX_FIXTURES }));
    const reportDir = await mkdtemp(path.join(scratch, "stopping-"));
    const { child, output } = startCli([
      "proxy",
      "--upstream",
      sb.baseUrl,
      "--report-dir",
      reportDir,
      "--",
      process.execPath,
      "stopping.mjs",
      reportDir,
    ]);
    await waitForOutput(child, /^app first 200$/m, 30_000);
    child.kill("SIGINT");
    // The command exits 0, but a request of its app was refused unchecked: the run did not check all its traffic.
    expect(await exitWithin(child, 30_000), output()).toBe(2);
    expect(output()).toMatch(/^app after the signal 503 .*proxy_stopping.*it takes no new requests/m);
    expect(output()).toMatch(
      /^contract proxy: 1 request\(s\) came while the proxy was stopping and got its 503, forwarded nowhere and judged by nothing \(GET \/studio\/v1\/library\/files\/doc-1\): /m,
    );
    expect(output()).toMatch(/, 1 refused unchecked as the proxy stopped; reports in /);
    const [, ms] = /^app saw the reports: true (\d+) ms$/m.exec(output()) ?? [];
    expect(Number(ms), output()).toBeLessThan(6_000);
    // The read after the signal reached no upstream: the run judged the one before it.
    expect(sb.logs.filter((line) => line.startsWith("GET "))).toHaveLength(1);
    expect(JSON.parse(await readFile(path.join(reportDir, "proxy-summary.json"), "utf8"))).toMatchObject({
      exchanges: 1,
      findings: [],
      refusedWhileStopping: { count: 1, examples: [{ method: "GET", path: "/studio/v1/library/files/doc-1" }] },
    });
  });
});

describe("the packed contract package's replay", { timeout: 60_000 }, () => {
  /** `replay FILE --base-url URL` with its reports in a fresh folder. */
  const replayOf = async (file: string, baseUrl: string, flags: string[] = []) =>
    cli(
      [
        "replay",
        file,
        "--base-url",
        baseUrl,
        "--report-dir",
        path.basename(await mkdtemp(path.join(project, "replay-"))),
        ...flags,
      ],
      SANDBOX_KEY,
    );

  it("of an app that reads, updates and reads again: a deployment that drops every update fails with --write-checks (exit 1, update_persisted)", async () => {
    const recorded = await stoppedAfter(sandbox({ fixturesFile: SANDBOX_FIXTURES }));
    const file = path.join(await mkdtemp(path.join(scratch, "recorded-")), "app.jsonl");
    const run = await proxyRun(recorded.baseUrl, [process.execPath, "read-update-read.mjs"], SANDBOX_KEY, [
      "--record",
      file,
    ]);
    expect(run.output.match(/^app (GET|PUT) 200$/gm), run.output).toHaveLength(3);
    expect(run.code, run.output).toBe(0);
    const dropping = await stoppedAfter(sandbox({ fixturesFile: SANDBOX_FIXTURES, fault: "labels-not-persisted" }));
    const replayed = await replayOf(file, dropping.baseUrl, ["--write-checks"]);
    expect(replayed.output).toMatch(
      /BREAK \(service\) line 3: GET \/studio\/v1\/library\/files\/doc-1 update_persisted: /,
    );
    expect(replayed.output).toMatch(/failed: 3 exchanges, 0 duplicates, 3 replayed, /);
    expect(replayed.code, replayed.output).toBe(1);
  });

  it("of a HAR exported without Authorization (Chrome's default): the key where the answer shows it, exit 0 against a correct server", async () => {
    const sb = await stoppedAfter(sandbox({ fixturesFile: SANDBOX_FIXTURES }));
    const entry = (target: string, status: number) => ({
      startedDateTime: "2026-11-27T10:00:00.000Z",
      time: 5,
      request: {
        method: "GET",
        url: `https://app.example.test${target}`,
        httpVersion: "HTTP/1.1",
        headers: [{ name: "Accept", value: "application/json" }],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status,
        statusText: "",
        httpVersion: "HTTP/1.1",
        headers: [{ name: "Content-Type", value: "application/json" }],
        cookies: [],
        content: { size: 0, mimeType: "application/json" },
        redirectURL: "",
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 5, receive: 0 },
    });
    const har = path.join(await mkdtemp(path.join(scratch, "har-")), "sanitized.har");
    await writeFile(
      har,
      JSON.stringify({
        log: {
          version: "1.2",
          creator: { name: "WebInspector", version: "537.36" },
          entries: [
            entry("/studio/v1/library/files/doc-1", 200),
            entry("/studio/v1/library/files/no-such-file", 422),
            entry("/studio/v1/library/files/doc-1/download", 200),
          ],
        },
      }),
    );
    const run = await replayOf(har, sb.baseUrl);
    expect(run.output).toMatch(/passed: 3 exchanges, 0 duplicates, 3 replayed, 0 break\(s\)/);
    expect(run.code, run.output).toBe(0);
    expect(sb.logs.filter((line) => / 401 /.test(line))).toEqual([]);
  });
});

describe.skipIf(!chrome)("the packed contract package's replay of a HAR made by Chromium", { timeout: 60_000 }, () => {
  it("of a page that uses the client: exit 0 against the sandbox, the page and CORS preflights left out, its reports written", async () => {
    const har = await chromiumHar(scratch, chrome!);
    const sb = await stoppedAfter(sandbox({ fixturesFile: SANDBOX_FIXTURES }));
    const reportDir = await mkdtemp(path.join(project, "replay-reports-"));
    const run = await cli(
      ["replay", har, "--base-url", sb.baseUrl, "--report-dir", path.basename(reportDir)],
      SANDBOX_KEY,
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/passed: 3 exchanges, 0 duplicates, 3 replayed, 0 break\(s\); reports/);
    expect(
      sb.logs.filter((line) => line.startsWith("GET ")),
      sb.logs.join("\n"),
    ).toHaveLength(3);
    expect((await readdir(reportDir)).sort()).toEqual(["replay-junit.xml", "replay-summary.json", "replay-summary.md"]);
    expect(run.output).not.toContain(SANDBOX_KEY);
  });
});
