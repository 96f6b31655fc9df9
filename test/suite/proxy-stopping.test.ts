// covers: contract-tests/proxy/start-proxy.ts, contract-tests/proxy/forward.ts, contract-tests/proxy/proxy-reports.ts, contract-tests/proxy/traffic-log.ts, contract-tests/proxy/judge-traffic.ts
// Requests that come once the proxy is stopping get its 503 and reach nothing (docs/decisions.md, D27): each report
// and one closing line count them and name the first few, redacted, and the run exits 2 (its traffic was not all
// checked), not 1 (the service did nothing wrong) and never 0.
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startProxy, type ProxyRun } from "../../contract-tests/index.ts";
import { sandbox, SANDBOX_KEY } from "../support/sandbox.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";

const FILES = "/studio/v1/library/files";
const KEYED = { authorization: `Bearer ${SANDBOX_KEY}` };
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A proxy in this process in front of `upstream`, its lines kept. */
async function proxyTo(upstream: string) {
  const lines: string[] = [];
  const proxy = await startProxy({
    upstream,
    reportDir: await mkdtemp(path.join(os.tmpdir(), "file-library-proxy-stopping-")),
    env: { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
    say: (line) => lines.push(line),
  });
  cleanups.push(() => proxy.stopNow());
  return Object.assign(proxy, { lines });
}

/** The run's three reports, as text. */
const reportsOf = (run: ProxyRun) =>
  Promise.all(
    ["proxy-summary.json", "proxy-summary.md", "proxy-junit.xml"].map((file) =>
      readFile(path.join(run.reportDir, file), "utf8"),
    ),
  );

describe("the proxy's requests refused while stopping", { timeout: 60_000 }, () => {
  it("with a command still running: every report and one closing line count them and name the first five, redacted; exit 2 where the traffic kept the contract", async () => {
    const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
    cleanups.push(() => sb.close());
    const proxy = await proxyTo(sb.baseUrl);
    expect((await fetch(`${proxy.url}${FILES}/doc-1`, { headers: KEYED })).status).toBe(200);
    let commandEnds!: () => void;
    const stopped = proxy.stop({ refuseUntil: new Promise<void>((resolve) => (commandEnds = resolve)) });
    // The app's requests after the stop: the key in one's path, a token never seen before in another's (its bearer).
    const other = "other-token-7c1d2e";
    // One after the other: the first five are the ones named.
    const late = [
      () => fetch(`${proxy.url}${FILES}/${SANDBOX_KEY}`, { headers: KEYED }),
      () =>
        fetch(`${proxy.url}${FILES}/${other}?token=${other}`, {
          method: "PUT",
          headers: { authorization: `Bearer ${other}`, "content-type": "application/json" },
          body: JSON.stringify({ labels: ["x"] }),
        }),
      ...Array.from({ length: 5 }, (_, i) => () => fetch(`${proxy.url}${FILES}/late-${i}`, { headers: KEYED })),
    ];
    for (const send of late) expect((await send()).status).toBe(503);
    commandEnds();
    const run = await stopped;

    expect(run.summary.verdict).toBe("passed");
    expect(run.exitCode).toBe(2);
    const { count, examples } = run.summary.refusedWhileStopping;
    expect(count).toBe(7);
    expect(examples).toHaveLength(5);
    expect(examples).toContainEqual({ method: "GET", path: `${FILES}/[REDACTED]` });
    expect(examples).toContainEqual({ method: "PUT", path: `${FILES}/[REDACTED]` });
    const closing = proxy.lines.filter((line) => line.includes("while the proxy was stopping"));
    expect(closing).toHaveLength(1);
    expect(closing[0]).toMatch(
      /^contract proxy: 7 request\(s\) came while the proxy was stopping and got its 503, forwarded nowhere and judged by nothing \(GET \/studio\/v1\/library\/files\/\[REDACTED\], PUT \/studio\/v1\/library\/files\/\[REDACTED\], GET \/studio\/v1\/library\/files\/late-0, GET \/studio\/v1\/library\/files\/late-1, GET \/studio\/v1\/library\/files\/late-2, and 2 more\): the app's traffic was not all checked; stop the proxy once the app is done$/,
    );
    const [json, markdown, junit] = await reportsOf(run);
    expect(JSON.parse(json!).refusedWhileStopping).toEqual({ count, examples });
    expect(markdown).toMatch(
      /^\*\*Not all checked:\*\* 7 request\(s\) came while the proxy was stopping .*GET \/studio\/v1\/library\/files\/\[REDACTED\]/m,
    );
    expect(junit).toMatch(
      /<testcase classname="stopping" name="every request judged">\s*<failure message="7 request\(s\) came while the proxy was stopping [^"]*PUT \/studio\/v1\/library\/files\/\[REDACTED\]/,
    );
    for (const text of [json, markdown, junit, proxy.lines.join("\n")]) {
      expect(text).not.toContain(SANDBOX_KEY);
      expect(text).not.toContain(other);
    }
  });

  it("refused during the drain of a run whose traffic broke the contract: counted, and exit 2 before 1", async () => {
    let arrived!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // A path of no operation (an app finding), answered once the test has its 503.
    const upstream = createServer((_req, res) => {
      arrived();
      void released.then(() => res.writeHead(404).end());
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => upstream.close(resolve)));
    const proxy = await proxyTo(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    const inFlight = fetch(`${proxy.url}/held`);
    await held;
    const stopped = proxy.stop();
    expect((await fetch(`${proxy.url}/late?key=${SANDBOX_KEY}`)).status).toBe(503);
    release();
    expect((await inFlight).status).toBe(404);
    const run = await stopped;
    expect(run.summary.verdict).toBe("failed");
    expect(run.summary.refusedWhileStopping).toEqual({ count: 1, examples: [{ method: "GET", path: "/late" }] });
    expect(run.exitCode).toBe(2);
    const [json, markdown, junit] = await reportsOf(run);
    for (const text of [markdown, junit, proxy.lines.join("\n")])
      expect(text).toContain("1 request(s) came while the proxy was stopping");
    expect(json).not.toContain(SANDBOX_KEY);
  });
});
