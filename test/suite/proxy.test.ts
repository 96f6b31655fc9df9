// covers: contract-tests/proxy/, contract-tests/runner/proxy-command.ts, lib/openapi/request-inspection.ts, lib/bearer-token.ts
import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { startProxy, type ProxyRun, type RunningProxy } from "../../contract-tests/index.ts";
import { startForwarding, type UpstreamFailure } from "../../contract-tests/proxy/forward.ts";
import { TrafficRules } from "../../contract-tests/proxy/traffic-rules.ts";
import { AuthenticationError, createFileLibraryClient, UnprocessableEntityError } from "../../src/index.ts";
import { exitCodeOf, waitForOutput } from "../../lib/process.ts";
import { closedPort } from "../support/closed-port.ts";
import { startScript } from "../support/processes.ts";
import { sandbox, SANDBOX_KEY } from "../support/sandbox.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";

const FILES = "/studio/v1/library/files";
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const reportDir = () => mkdtemp(path.join(os.tmpdir(), "file-library-proxy-"));

/** A proxy in this process, its lines kept; stopped after the test if the test did not stop it. */
async function proxyTo(
  upstream: string,
  options: { maxResponseBytes?: number } = {},
): Promise<RunningProxy & { lines: string[] }> {
  const lines: string[] = [];
  const proxy = await startProxy({
    upstream,
    reportDir: await reportDir(),
    env: { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
    say: (line) => lines.push(line),
    ...options,
  });
  cleanups.push(() => proxy.stop());
  return Object.assign(proxy, { lines });
}

/** A sandbox with a fault or variant (if named), stopped after the test. */
async function upstreamSandbox(fault?: string) {
  const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, ...(fault ? { fault } : {}) });
  cleanups.push(() => sb.close());
  return sb;
}

/** What an app does with the kit's client: reads, updates, reads back, gets the URL, and meets an unknown id and a wrong key. */
async function appTraffic(baseUrl: string): Promise<void> {
  const files = createFileLibraryClient({ baseUrl, apiKey: SANDBOX_KEY, maxRetries: 0 }).files;
  await files.get("doc-1");
  await files.update("doc-1", {
    labels: ["q3", "finance, 2026", "ünïcode"],
    publicUrl: "https://cdn.example.test/q3.pdf",
  });
  await files.get("doc-1");
  await files.update("doc-1", { labels: [] });
  await files.get("doc-1");
  await files.downloadUrl("doc-1");
  await files.get("doc-2");
  await files.downloadUrl("doc-2");
  await expect(files.get("no-such-file")).rejects.toBeInstanceOf(UnprocessableEntityError);
  const wrong = createFileLibraryClient({ baseUrl, apiKey: "not-the-key-7", maxRetries: 0 }).files;
  await expect(wrong.get("doc-1")).rejects.toBeInstanceOf(AuthenticationError);
}

const checksFound = (run: ProxyRun) =>
  [...new Set(run.summary.findings.map((f) => `${f.side} ${f.operation} ${f.check}`))].sort();

describe("the contract proxy against the sandbox", { timeout: 60_000 }, () => {
  it("forwards an app's correct traffic with 0 findings, and reports every operation and status it saw", async () => {
    const sb = await upstreamSandbox();
    const proxy = await proxyTo(sb.baseUrl);
    await appTraffic(proxy.url);
    const run = await proxy.stop();
    expect(run.summary.findings, proxy.lines.join("\n")).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.summary.exchanges).toBe(10);
    expect(run.summary.statuses).toEqual(
      expect.arrayContaining([
        { operation: "getFile", requests: 6, byStatus: { 200: 4, 401: 1, 422: 1 } },
        { operation: "updateFile", requests: 2, byStatus: { 200: 2 } },
        { operation: "getFileDownloadUrl", requests: 2, byStatus: { 200: 2 } },
      ]),
    );
    expect(run.summary.unseen).toEqual([]);
    expect(run.summary.upstreamFailures.count).toBe(0);
    const junit = await readFile(path.join(run.reportDir, "proxy-junit.xml"), "utf8");
    expect(junit).toMatch(/<testsuites name="file-library-contract proxy" tests="\d+" failures="0" skipped="0">/);
    expect(junit).toContain('<testcase classname="getFile" name="response_schema_conformance"></testcase>');
    const markdown = await readFile(path.join(run.reportDir, "proxy-summary.md"), "utf8");
    expect(markdown).toContain("| getFile | 6 | seen | seen | seen | not seen |");
    expect(JSON.parse(await readFile(path.join(run.reportDir, "proxy-summary.json"), "utf8"))).toEqual(run.summary);
  });

  it("lists the operations the traffic never called as skipped", async () => {
    const sb = await upstreamSandbox();
    const proxy = await proxyTo(sb.baseUrl);
    await createFileLibraryClient({ baseUrl: proxy.url, apiKey: SANDBOX_KEY }).files.get("doc-1");
    const run = await proxy.stop();
    expect(run.summary.unseen).toEqual(["updateFile", "getFileDownloadUrl"]);
    const junit = await readFile(path.join(run.reportDir, "proxy-junit.xml"), "utf8");
    expect(junit).toContain(
      '<testcase classname="updateFile" name="not seen in the traffic">\n      <skipped message="no request of the traffic called updateFile"/>',
    );
  });

  // Each fault the app's traffic exercises, and the check that must name it (the service's side).
  it.each([
    ["metadata-size-as-string", "service getFile response_schema_conformance"],
    ["metadata-as-text-plain", "service getFile content_type_conformance"],
    ["metadata-latin1", "service getFile json_well_formed"],
    ["metadata-size-repeated", "service getFile json_well_formed"],
    ["metadata-wrong-id", "service getFile metadata_of_requested_file"],
    ["request-id-with-spaces", "service getFile response_headers_conformance"],
    ["key-echoed-in-header", "service getFile no_secret_echo"],
    ["unknown-id-404", "service getFile status_code_conformance"],
    ["download-url-control-char", "service getFileDownloadUrl download_url_valid"],
    ["labels-not-persisted", "service updateFile update_persisted"],
    ["labels-split-at-commas", "service updateFile update_persisted"],
    ["update-resets-created-at", "service getFile update_changes_only_its_fields"],
    ["update-empties-the-file", "service getFile update_changes_only_its_fields"],
  ])("reports the fault %s under %s", async (fault, expected) => {
    const sb = await upstreamSandbox(fault);
    const proxy = await proxyTo(sb.baseUrl);
    await appTraffic(proxy.url).catch(() => {});
    const run = await proxy.stop();
    expect(checksFound(run)).toContain(expected);
    expect(run.exitCode).toBe(1);
    expect(run.summary.findings.every((f) => f.side === "service")).toBe(true);
    // One line on stderr for each new kind, as it happened, with a curl that takes the key from the environment.
    const line = proxy.lines.find((l) =>
      l.startsWith(`contract proxy: FINDING (service) ${expected.split(" ").slice(1).join(" ")}: `),
    );
    expect(line).toBeDefined();
    expect(line).toContain("reproduce: curl -i -X ");
    const everything = [
      ...proxy.lines,
      JSON.stringify(run.summary),
      await readFile(path.join(run.reportDir, "proxy-junit.xml"), "utf8"),
    ].join("\n");
    expect(everything).not.toContain(SANDBOX_KEY);
    expect(everything).not.toContain("not-the-key-7");
  });

  it("reports an app's bad requests on the app's side, with the rule each breaks, and not the service's answers to them", async () => {
    const sb = await upstreamSandbox();
    const proxy = await proxyTo(sb.baseUrl);
    const key = { authorization: `Bearer ${SANDBOX_KEY}` };
    await fetch(`${proxy.url}${FILES}/doc-1`, {
      method: "PUT",
      headers: { ...key, "content-type": "application/json" },
      body: JSON.stringify({ labels: "a,b" }),
    });
    await fetch(`${proxy.url}${FILES}/doc-1`, {
      method: "PUT",
      headers: key,
      body: new Uint8Array(Buffer.from('{"labels":[]}')),
    });
    await fetch(`${proxy.url}${FILES}/doc-1`);
    await fetch(`${proxy.url}${FILES}/doc-1`, { method: "DELETE", headers: key });
    await fetch(`${proxy.url}/studio/v1/library/folders`, { headers: key });
    const run = await proxy.stop();
    expect(checksFound(run)).toEqual([
      "app DELETE /studio/v1/library/files/doc-1 operation_exists",
      "app GET /studio/v1/library/folders operation_exists",
      "app getFile auth_sent",
      "app updateFile request_body_valid",
      "app updateFile request_content_type",
    ]);
    const bodyFinding = run.summary.findings.find((f) => f.check === "request_body_valid")!;
    expect(bodyFinding.problem).toBe("the body does not match its schema: check labels");
    expect(bodyFinding.curl).toContain(`--data-raw '{"labels":"a,b"}'`);
    expect(bodyFinding.curl).toContain('"Authorization: Bearer $FILE_LIBRARY_API_KEY"');
    const junit = await readFile(path.join(run.reportDir, "proxy-junit.xml"), "utf8");
    expect(junit).toContain('<testsuite name="requests matching no operation" tests="2" failures="2" skipped="0">');
  });

  it("shows each distinct message of a kind of finding with its count, not only the first: stderr, JUnit, JSON and Markdown (issue 54, item 12)", async () => {
    const sb = await upstreamSandbox();
    const proxy = await proxyTo(sb.baseUrl);
    const put = (body: unknown) =>
      fetch(`${proxy.url}${FILES}/doc-1`, {
        method: "PUT",
        headers: { authorization: `Bearer ${SANDBOX_KEY}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    for (const body of [{ publicUrl: 5 }, { labels: "x" }, { publicUrl: 6 }]) await put(body);
    const run = await proxy.stop();
    const [kind, ...others] = run.summary.findings;
    expect(others).toEqual([]);
    expect(kind).toMatchObject({
      side: "app",
      operation: "updateFile",
      check: "request_body_valid",
      count: 3,
      messagesLeftOut: 0,
    });
    expect(kind!.messages.map((m) => [m.count, m.problem])).toEqual([
      [2, "the body does not match its schema: check publicUrl"],
      [1, "the body does not match its schema: check labels"],
    ]);
    expect(kind!.messages[1]!.curl).toContain(`--data-raw '{"labels":"x"}'`);
    const said = proxy.lines.filter((l) =>
      l.startsWith("contract proxy: FINDING (app) updateFile request_body_valid: "),
    );
    expect(said.map((l) => l.split("\n")[0])).toEqual([
      "contract proxy: FINDING (app) updateFile request_body_valid: the body does not match its schema: check publicUrl",
      "contract proxy: FINDING (app) updateFile request_body_valid: the body does not match its schema: check labels",
    ]);
    expect(proxy.lines).toContain("contract proxy:     1×: the body does not match its schema: check labels");
    const junit = await readFile(path.join(run.reportDir, "proxy-junit.xml"), "utf8");
    expect(junit).toContain("2 time(s): the body does not match its schema: check publicUrl");
    expect(junit).toContain("1 time(s): the body does not match its schema: check labels\nreproduce: curl");
    expect(
      JSON.parse(await readFile(path.join(run.reportDir, "proxy-summary.json"), "utf8")).findings[0].messages,
    ).toHaveLength(2);
    const markdown = await readFile(path.join(run.reportDir, "proxy-summary.md"), "utf8");
    expect(markdown).toContain(
      "| app | updateFile | request_body_valid | 3 | 2×: the body does not match its schema: check publicUrl<br>1×: the body does not match its schema: check labels |",
    );
  });

  it("forwards a browser's CORS preflight without judging it: the spec documents no OPTIONS, and the app did not send it", async () => {
    const sb = await upstreamSandbox();
    const proxy = await proxyTo(sb.baseUrl);
    const answer = await fetch(`${proxy.url}${FILES}/doc-1`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "PUT",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-methods")).toContain("PUT");
    await fetch(`${proxy.url}${FILES}/doc-1`, { method: "OPTIONS" });
    const run = await proxy.stop();
    expect(run.summary.preflights).toBe(1);
    // An OPTIONS that is no preflight is the app's own request, to no operation.
    expect(checksFound(run)).toEqual(["app OPTIONS /studio/v1/library/files/doc-1 operation_exists"]);
  });

  it("sees across exchanges: a file that answered 200 and then 422 with no update between", async () => {
    let reads = 0;
    const upstream = await serve((_req, res) => {
      const gone = ++reads > 1;
      res.writeHead(gone ? 422 : 200, { "content-type": "application/json", "x-request-id": `r${reads}` });
      res.end(
        JSON.stringify(
          gone
            ? { code: "file_not_found", message: "No such file." }
            : { id: "f1", name: "a.txt", size: 1, created_at: "2026-01-01T00:00:00Z", labels: [] },
        ),
      );
    });
    const proxy = await proxyTo(upstream);
    const files = createFileLibraryClient({ baseUrl: proxy.url, apiKey: SANDBOX_KEY, maxRetries: 0 }).files;
    await files.get("f1");
    await files.get("f1").catch(() => {});
    const run = await proxy.stop();
    expect(checksFound(run)).toEqual(["service getFile file_existence_consistent"]);
    expect(run.summary.findings[0]!.problem).toBe(
      '"f1" answered 200 (the file exists) to getFile, then 422 (no such file) to getFile, with no update of it between',
    );
  });
});

describe("the contract proxy when a traffic rule throws", { timeout: 60_000 }, () => {
  it("answers the app, reports the proxy's own finding with a line, and fails the run", async () => {
    for (const method of ["updateStarted", "read"] as const) {
      vi.spyOn(TrafficRules.prototype, method).mockImplementation(() => {
        throw new Error(`the rule ${method} broke`);
      });
    }
    const upstream = await serve((req, res) => {
      res.writeHead(200, req.method === "PUT" ? {} : { "content-type": "application/json" });
      res.end(
        req.method === "PUT"
          ? ""
          : JSON.stringify({ id: "f1", name: "a.txt", size: 1, created_at: "2026-01-01T00:00:00Z", labels: [] }),
      );
    });
    const proxy = await proxyTo(upstream);
    const files = createFileLibraryClient({
      baseUrl: proxy.url,
      apiKey: SANDBOX_KEY,
      maxRetries: 0,
      timeoutMs: 10_000,
    }).files;
    await files.update("f1", { labels: ["a"] });
    expect((await files.get("f1")).id).toBe("f1");
    const run = await proxy.stop();
    expect(run.exitCode).toBe(1);
    expect(checksFound(run)).toEqual(["proxy getFile traffic_rules", "proxy updateFile traffic_rules"]);
    expect(proxy.lines).toContain(
      `contract proxy: FINDING (proxy) updateFile traffic_rules: the check stopped on an unexpected error while noting PUT ${FILES}/f1 as it arrived: Error: the rule updateStarted broke\n    reproduce: ${run.summary.findings.find((f) => f.operation === "updateFile")!.curl}`,
    );
    const junit = await readFile(path.join(run.reportDir, "proxy-junit.xml"), "utf8");
    expect(junit).toMatch(
      /<testcase classname="getFile" name="traffic_rules">\n {6}<failure message="proxy: the check stopped on an unexpected error while judging the read HTTP 200 of &quot;f1&quot;/,
    );
  });
});

describe("startForwarding when its listener throws as a request arrives", { timeout: 60_000 }, () => {
  it("answers the app 502 saying the proxy failed, tells of the failure, and closes", async () => {
    const upstream = await serve((_req, res) => res.end("never reached"));
    const failures: UpstreamFailure[] = [];
    const forwarding = await startForwarding({
      upstream,
      captureBytes: 1024,
      onRequest: () => {
        throw new Error("the listener broke");
      },
      onExchange: () => {},
      onUpstreamFailure: (failure) => failures.push(failure),
    });
    const answer = await fetch(`${forwarding.url}${FILES}/f1`);
    expect(answer.status).toBe(502);
    expect(answer.headers.get("x-contract-proxy")).toBe("upstream-unreachable");
    expect(await answer.json()).toEqual({
      error: {
        code: "upstream_unreachable",
        message: "The contract proxy could not reach the upstream: the proxy failed while forwarding.",
      },
    });
    await forwarding.close();
    expect(failures.map((f) => [f.method, f.target, f.reason])).toEqual([
      ["GET", `${FILES}/f1`, "the proxy failed: the listener broke"],
    ]);
  });
});

/** A plain upstream of the test's own. */
async function serve(
  handler: (req: IncomingMessage, res: import("node:http").ServerResponse) => void,
): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => handler(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("what the proxy forwards", { timeout: 60_000 }, () => {
  it("passes requests and answers unchanged but for hop-by-hop headers, with Host naming the upstream", async () => {
    let seen: IncomingMessage | undefined;
    let body = Buffer.alloc(0);
    const server: Server = createServer((req, res) => {
      seen = req;
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        body = Buffer.concat(chunks);
        res.writeHead(207, "Odd Status", [
          ["Set-Cookie", "a=1"],
          ["Set-Cookie", "b=2"],
          ["X-Trace", "t1"],
          ["Content-Type", "application/octet-stream"],
          ["Keep-Alive", "timeout=9"],
        ]);
        res.end(Buffer.from([0, 255, 1, 254]));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const proxy = await proxyTo(upstream);
    const sent = Buffer.from([1, 2, 3, 0, 250]);
    const answer = await new Promise<{
      status: number;
      message: string;
      headers: IncomingMessage["headers"];
      raw: string[];
      body: Buffer;
    }>((resolve, reject) => {
      const req = httpRequest(`${proxy.url}${FILES}/f%2F1?x=1`, {
        method: "PUT",
        headers: {
          "content-type": "application/octet-stream",
          "x-app": "yes",
          connection: "keep-alive, x-hop",
          "x-hop": "dropped",
          te: "trailers",
          authorization: `Bearer ${SANDBOX_KEY}`,
        },
      });
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            message: res.statusMessage!,
            headers: res.headers,
            raw: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
      });
      req.on("error", reject);
      req.end(sent);
    });
    expect(seen!.url).toBe(`${FILES}/f%2F1?x=1`);
    expect(seen!.headers.host).toBe(new URL(upstream).host);
    expect(seen!.headers["x-app"]).toBe("yes");
    expect(seen!.headers.authorization).toBe(`Bearer ${SANDBOX_KEY}`);
    expect(seen!.headers["x-hop"]).toBeUndefined();
    expect(seen!.headers.te).toBeUndefined();
    expect(body).toEqual(sent);
    expect(answer.status).toBe(207);
    expect(answer.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
    expect(answer.headers["x-trace"]).toBe("t1");
    expect(answer.headers["keep-alive"]).not.toBe("timeout=9");
    expect(answer.body).toEqual(Buffer.from([0, 255, 1, 254]));
    await proxy.stop();
  });

  it("answers 502 with a JSON body when the upstream is unreachable, counted apart from findings; a run it answered nothing exits 2 naming it", async () => {
    const proxy = await proxyTo(`http://127.0.0.1:${await closedPort()}`);
    const answer = await fetch(`${proxy.url}${FILES}/doc-1`, { headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
    expect(answer.status).toBe(502);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.headers.get("x-contract-proxy")).toBe("upstream-unreachable");
    const { error } = (await answer.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("upstream_unreachable");
    expect(error.message).toMatch(/^The contract proxy could not reach the upstream: ECONNREFUSED/);
    const run = await proxy.stop();
    expect(run.summary.findings).toEqual([]);
    expect(run.summary.upstreamFailures.count).toBe(1);
    // It answered nothing: the run checked nothing, and cannot pass.
    expect(run.exitCode).toBe(2);
    expect(run.summary.stopped).toMatch(
      /^the upstream http:\/\/127\.0\.0\.1:\d+ answered none of the 1 request\(s\) sent to it \(the first: ECONNREFUSED: .*\): check --upstream$/,
    );
    expect(await readFile(path.join(run.reportDir, "proxy-summary.md"), "utf8")).toContain(
      `**Nothing was checked:** ${run.summary.stopped}.`,
    );
    expect(proxy.lines.join("\n")).toMatch(
      /the upstream did not answer GET \/studio\/v1\/library\/files\/doc-1: ECONNREFUSED/,
    );
  });

  it("exits 2 when no request reached the upstream at all, and 0 or 1 as soon as one answer came", async () => {
    const upstream = await serve((_req, res) => res.writeHead(404).end());
    const idle = await proxyTo(upstream);
    const none = await idle.stop();
    expect(none.exitCode).toBe(2);
    expect(none.summary.stopped).toMatch(
      /^no request reached the upstream http:\/\/127\.0\.0\.1:\d+: nothing was sent through the proxy/,
    );
    const once = await proxyTo(upstream);
    await (await fetch(`${once.url}/anything`)).arrayBuffer();
    const one = await once.stop();
    expect(one.summary.stopped).toBeUndefined();
    expect(one.exitCode).toBe(1);
  });

  it("stop() lets an exchange in flight finish within its drain, and cuts one the upstream holds past it: the app gets a 502 saying so", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const arrived: string[] = [];
    let heard!: () => void;
    const bothArrived = new Promise<void>((resolve) => (heard = resolve));
    const upstream = await serve((req, res) => {
      arrived.push(req.url!);
      if (arrived.length === 2) heard();
      // /slow is answered once the test says so; /held never.
      if (req.url!.endsWith("/slow")) void released.then(() => res.writeHead(404).end());
    });
    const lines: string[] = [];
    const proxy = await startProxy({
      upstream,
      reportDir: await reportDir(),
      env: {},
      say: (line) => lines.push(line),
      drainMs: 300,
    });
    cleanups.push(() => proxy.stop());
    const slow = fetch(`${proxy.url}/slow`);
    const held = fetch(`${proxy.url}/held`);
    await bothArrived;
    const stopped = proxy.stop();
    release();
    expect((await slow).status).toBe(404);
    const cut = await held;
    expect(cut.status).toBe(502);
    expect(((await cut.json()) as { error: { message: string } }).error.message).toBe(
      "The contract proxy could not reach the upstream: the proxy stopped after waiting 0.3 s for the upstream's answer.",
    );
    const run = await stopped;
    expect(run.summary.cutAtStop).toBe(1);
    expect(run.summary.exchanges).toBe(1);
    expect(run.summary.upstreamFailures.count).toBe(1);
  });

  it("stop() takes no new request: one that comes while an exchange in flight finishes gets a 503 saying so, and reaches no upstream", async () => {
    const arrived: string[] = [];
    let heard!: () => void;
    const held = new Promise<void>((resolve) => (heard = resolve));
    const upstream = await serve((req, res) => {
      arrived.push(req.url!);
      // /held is answered only once the test has its 503.
      if (req.url === "/held") heard();
      else res.writeHead(404).end();
    });
    const proxy = await startProxy({ upstream, reportDir: await reportDir(), env: {}, say: () => {}, drainMs: 60_000 });
    cleanups.push(() => proxy.stopNow());
    const inFlight = fetch(`${proxy.url}/held`);
    await held;
    const stopped = proxy.stop();
    const late = await fetch(`${proxy.url}/late`);
    expect(late.status).toBe(503);
    expect(late.headers.get("x-contract-proxy")).toBe("stopping");
    expect(((await late.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: "proxy_stopping",
      message: "The contract proxy is stopping (it was interrupted, or its command ended): it takes no new requests.",
    });
    expect(arrived).toEqual(["/held"]);
    void proxy.stopNow();
    expect((await inFlight).status).toBe(502);
    const run = await stopped;
    expect(run.summary.exchanges).toBe(0);
    // Refused during the drain: counted, though the run is already exit 2 for an upstream that answered nothing.
    expect(run.summary.refusedWhileStopping).toEqual({ count: 1, examples: [{ method: "GET", path: "/late" }] });
  });

  it("answers garbage on its socket as node:http does, and forwards none of it", async () => {
    let requests = 0;
    const upstream = await serve((_req, res) => (requests++, res.end()));
    const proxy = await proxyTo(upstream);
    const { port } = new URL(proxy.url);
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), "127.0.0.1", () => socket.end("NOT HTTP AT ALL\r\n\r\n"));
      let text = "";
      socket.on("data", (c: Buffer) => (text += c.toString()));
      socket.on("close", () => resolve(text));
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    const run = await proxy.stop();
    expect(requests).toBe(0);
    expect(run.summary.exchanges).toBe(0);
  });

  it("an app that goes away mid-answer is no finding", async () => {
    const upstream = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":"f1",');
      // The rest never comes: the app gives up.
    });
    const proxy = await proxyTo(upstream);
    const controller = new AbortController();
    const answer = await fetch(`${proxy.url}${FILES}/f1`, {
      headers: { authorization: `Bearer ${SANDBOX_KEY}` },
      signal: controller.signal,
    });
    expect(answer.status).toBe(200);
    controller.abort();
    await answer.text().catch(() => {});
    const run = await proxy.stop();
    expect(run.summary.findings).toEqual([]);
    expect(run.summary.clientsGone).toBe(1);
  });

  it("forwards a 10 MB body and an endless one whole, reports them as not checked, and keeps its memory bounded", async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const upstream = await serve((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      if (req.url!.endsWith("/download")) {
        for (let i = 0; i < 160; i++) res.write(chunk);
        res.end();
        return;
      }
      // Endless, at the pace the reader takes it.
      const pump = () => {
        while (res.write(chunk));
      };
      res.on("drain", pump);
      pump();
    });
    const proxy = await proxyTo(upstream);
    // What stays held after a full collection: garbage not yet collected is not memory the proxy keeps, and how
    // much of it is left over depends on the machine's load. Sampled every 2 MiB or so.
    v8.setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    let parts = 0;
    const memory = () => {
      gc();
      return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    };
    const sample = (peak: number) => (++parts % 32 === 0 ? Math.max(peak, memory()) : peak);
    const before = memory();
    let peak = before;
    const key = { authorization: `Bearer ${SANDBOX_KEY}` };
    const big = await fetch(`${proxy.url}${FILES}/f1/download`, { headers: key });
    let bytes = 0;
    for await (const part of big.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += part.length;
      peak = sample(peak);
    }
    expect(bytes).toBe(160 * chunk.length);
    const controller = new AbortController();
    const endless = await fetch(`${proxy.url}${FILES}/f1`, { headers: key, signal: controller.signal });
    let read = 0;
    for await (const part of endless.body as unknown as AsyncIterable<Uint8Array>) {
      read += part.length;
      peak = sample(peak);
      if (read > 64 * 1024 * 1024) break;
    }
    controller.abort();
    const run = await proxy.stop();
    // 74 MB passed through; the proxy kept at most its capture of 1 MiB per body, and the streams' buffers.
    expect(parts).toBeGreaterThan(100);
    expect(peak - before).toBeLessThan(24 * 1024 * 1024);
    expect(run.summary.notChecked).toEqual([
      {
        operation: "getFileDownloadUrl",
        reason: "the body is over 1048576 bytes (FILE_LIBRARY_MAX_RESPONSE_BYTES)",
        count: 1,
      },
    ]);
  });
});

describe("file-library-contract proxy on the command line", { timeout: 90_000 }, () => {
  /** The CLI with a command after `--`; resolves with its exit code and what it printed. */
  async function wrap(upstream: string, command: string[], dir: string, flags: string[] = []) {
    const child = startScript(
      "contract-tests/cli.ts",
      ["proxy", "--upstream", upstream, "--report-dir", dir, ...flags, "--", ...command],
      { ...process.env, FILE_LIBRARY_API_KEY: SANDBOX_KEY },
    );
    let output = "";
    child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    return { code: await exitCodeOf(child), output };
  }
  // An app: reads a file through FILE_LIBRARY_BASE_URL, with the key or without it, then exits as told.
  const app = (keyed: boolean, exit = 0) => [
    process.execPath,
    "-e",
    `const r = await fetch(process.env.FILE_LIBRARY_BASE_URL + "${FILES}/doc-1"${keyed ? ", { headers: { authorization: 'Bearer ' + process.env.FILE_LIBRARY_API_KEY } }" : ""}); console.log("app got", r.status); process.exit(${exit});`,
    "--input-type=module",
  ];

  it("exits 0 when the command's traffic keeps the contract, 1 when it breaks it, and the command's own status when it fails", async () => {
    const sb = await upstreamSandbox();
    const good = await wrap(sb.baseUrl, app(true), await reportDir());
    expect(good.output).toContain("app got 200");
    expect(good.output).toMatch(/proxy: 1 exchanges, 0 kind\(s\) of finding \(0 app, 0 service\); reports in /);
    expect(good.code, good.output).toBe(0);
    const dir = await reportDir();
    const bad = await wrap(sb.baseUrl, app(false), dir);
    expect(bad.output).toContain("app got 401");
    expect(bad.output).toContain("contract proxy: FINDING (app) getFile auth_sent:");
    expect(bad.code, bad.output).toBe(1);
    expect(JSON.parse(await readFile(path.join(dir, "proxy-summary.json"), "utf8")).verdict).toBe("failed");
    const failing = await wrap(sb.baseUrl, app(true, 3), await reportDir());
    expect(failing.code, failing.output).toBe(3);
    const missing = await wrap(sb.baseUrl, ["no-such-command-here"], await reportDir());
    expect(missing.code, missing.output).toBe(127);
    expect(missing.output).toContain("cannot run no-such-command-here: spawn no-such-command-here ENOENT");
    for (const run of [good, bad, failing, missing]) expect(run.output).not.toContain(SANDBOX_KEY);
  });

  it("without a command, runs until SIGINT and then writes its reports", async () => {
    const sb = await upstreamSandbox();
    const dir = await reportDir();
    const child = startScript("contract-tests/cli.ts", ["proxy", "--upstream", sb.baseUrl, "--report-dir", dir], {
      ...process.env,
      FILE_LIBRARY_API_KEY: SANDBOX_KEY,
    });
    const [, url] = await waitForOutput(child, /listening on (http:\/\/\S+),/, 30_000);
    const answer = await fetch(`${url}${FILES}/doc-1`, { headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
    expect(answer.status).toBe(200);
    child.kill("SIGINT");
    expect(await exitCodeOf(child)).toBe(0);
    const summary = JSON.parse(await readFile(path.join(dir, "proxy-summary.json"), "utf8"));
    expect(summary.exchanges).toBe(1);
    expect(await readFile(path.join(dir, "proxy-junit.xml"), "utf8")).toContain('name="getFile"');
  });

  it("on SIGINT, waits 5 s at most for a request the upstream holds, then answers it 502, writes the reports and exits with the verdict", async () => {
    let arrived!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    // /held is never answered; anything else gets a 404 (an undocumented path: one app finding, exit 1).
    const upstream = await serve((req, res) => (req.url === "/held" ? arrived() : res.writeHead(404).end()));
    const dir = await reportDir();
    const child = startScript(
      "contract-tests/cli.ts",
      ["proxy", "--upstream", upstream, "--report-dir", dir],
      process.env,
    );
    cleanups.push(async () => {
      child.kill("SIGKILL");
      await exitCodeOf(child);
    });
    const [, url] = await waitForOutput(child, /listening on (http:\/\/\S+),/, 30_000);
    expect((await fetch(`${url}/answered`)).status).toBe(404);
    const answer = fetch(`${url}/held`);
    await held;
    child.kill("SIGINT");
    const got = await answer;
    expect(got.status).toBe(502);
    expect(await got.text()).toContain("the proxy stopped after waiting 5 s for the upstream's answer");
    expect(await exitCodeOf(child)).toBe(1);
    const summary = JSON.parse(await readFile(path.join(dir, "proxy-summary.json"), "utf8"));
    expect([summary.exchanges, summary.cutAtStop, summary.upstreamFailures.count]).toEqual([1, 1, 1]);
  });

  it("a second SIGINT stops at once, though the upstream holds a request: the app gets its 502, the reports are written, exit 130", async () => {
    let arrived!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    const upstream = await serve(() => arrived());
    const dir = await reportDir();
    const child = startScript("contract-tests/cli.ts", ["proxy", "--upstream", upstream, "--report-dir", dir], {
      ...process.env,
      FILE_LIBRARY_API_KEY: SANDBOX_KEY,
    });
    cleanups.push(async () => {
      child.kill("SIGKILL");
      await exitCodeOf(child);
    });
    const [, url] = await waitForOutput(child, /listening on (http:\/\/\S+),/, 30_000);
    const answer = fetch(`${url}${FILES}/doc-1`, { headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
    await held;
    const draining = waitForOutput(
      child,
      /SIGINT: finishing the exchanges in flight \(5 s at most\), then writing the reports; SIGINT again to stop at once/,
    );
    child.kill("SIGINT");
    await draining;
    const stopping = waitForOutput(child, /SIGINT again: stopping at once, writing the reports/);
    child.kill("SIGINT");
    await stopping;
    const got = await answer;
    expect(got.status).toBe(502);
    expect(await got.text()).toContain("the proxy was stopped at once (a second Ctrl-C) before the upstream answered");
    expect(await exitCodeOf(child)).toBe(130);
    const summary = JSON.parse(await readFile(path.join(dir, "proxy-summary.json"), "utf8"));
    expect(summary.cutAtStop).toBe(1);
  });

  it("exits 2 with one line naming the upstream when it answered none of the command's requests", async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const run = await wrap(down, app(true), await reportDir());
    expect(run.output).toContain("app got 502");
    expect(run.code, run.output).toBe(2);
    expect(run.output).toMatch(
      new RegExp(
        `proxy: the upstream ${down.replace(/\./g, "\\.")} answered none of the 1 request\\(s\\) sent to it \\(the first: ECONNREFUSED: .*\\): check --upstream; reports in `,
      ),
    );
  });

  it("listens on the --port it is given, and exits 2 saying so when that port is taken", async () => {
    const sb = await upstreamSandbox();
    const port = await closedPort();
    const first = startScript(
      "contract-tests/cli.ts",
      ["proxy", "--upstream", sb.baseUrl, "--port", String(port), "--report-dir", await reportDir()],
      process.env,
    );
    cleanups.push(async () => {
      first.kill("SIGTERM");
      await exitCodeOf(first);
    });
    const [, url] = await waitForOutput(first, /listening on (http:\/\/\S+),/, 30_000);
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${url}${FILES}/doc-1`, { headers: { authorization: `Bearer ${SANDBOX_KEY}` } })).status).toBe(
      200,
    );
    const second = await wrap(sb.baseUrl, ["true"], await reportDir(), ["--port", String(port)]);
    expect(second.code).toBe(2);
    expect(second.output).toMatch(/proxy: cannot start: .*EADDRINUSE/);
  });

  it("refuses to start without an upstream, or with one that is not a URL (exit 2)", async () => {
    const none = await wrap("", ["true"], await reportDir());
    expect(none.code).toBe(2);
    expect(none.output).toMatch(/proxy: cannot start: --upstream /);
    const bad = await wrap("files example", ["true"], await reportDir());
    expect(bad.code).toBe(2);
    expect(bad.output).toMatch(/proxy: cannot start: --upstream .*absolute/);
    // A URL without its scheme gets what it may have meant.
    const bare = await wrap("files.example.com", ["true"], await reportDir());
    expect(bare.code).toBe(2);
    expect(bare.output).toMatch(
      /proxy: cannot start: --upstream "files\.example\.com" has no scheme: did you mean https:\/\/files\.example\.com\?/,
    );
  });
});
