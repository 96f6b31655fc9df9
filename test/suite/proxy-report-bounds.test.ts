// covers: contract-tests/proxy/traffic-log.ts, contract-tests/proxy/judge-traffic.ts, contract-tests/proxy/proxy-reports.ts
// The proxy's reports are bounded by design (docs/checking-a-server.md, What the proxy keeps): 100 uploads of 900 KB
// to paths of the app's own leave reports of a few kilobytes, each body elided with its size and digest, and the
// findings past a check's 20 kinds counted. Before, the same traffic wrote a JUnit file of 140 MB.
import { afterEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { mkdtemp, readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startProxy } from "../../contract-tests/index.ts";

const KEY = "report-bounds-key-3";
// The most bytes any report, or all that the proxy prints, may take, as docs/checking-a-server.md states it.
const REPORT_BOUND = 3 * 1024 * 1024;
const UPLOADS = 100;

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An upstream that answers 404 to every request, once it has read it. */
async function upstream(): Promise<string> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(404, { "content-type": "text/plain" }).end("no such path"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe("the contract proxy's reports", { timeout: 60_000 }, () => {
  it("stay within their stated size after 100 uploads of 900 KB to undocumented paths: bodies elided with size and digest, findings past 20 of a check counted", async () => {
    const lines: string[] = [];
    const dir = await mkdtemp(path.join(os.tmpdir(), "file-library-proxy-bounds-"));
    const proxy = await startProxy({ upstream: await upstream(), reportDir: dir, env: { FILE_LIBRARY_API_KEY: KEY }, say: (line) => lines.push(line) });
    cleanups.push(() => proxy.stop());
    const body = JSON.stringify({ data: `${KEY} `.repeat(45_000) });
    expect(body.length).toBeGreaterThan(900_000);
    for (let i = 0; i < UPLOADS; i++) {
      const answer = await fetch(`${proxy.url}/uploads/u-${i}`, { method: "PUT", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body });
      expect(answer.status).toBe(404);
      await answer.arrayBuffer();
    }
    const run = await proxy.stop();
    expect(run.exitCode).toBe(1);
    expect(run.summary.exchanges).toBe(UPLOADS);
    expect(run.summary.findings.map((f) => f.check)).toEqual(Array(20).fill("operation_exists"));
    expect(run.summary.findingsLeftOut).toEqual([{ side: "app", check: "operation_exists", count: UPLOADS - 20 }]);
    const digest = createHash("sha256").update(body).digest("hex");
    expect(run.summary.findings[0]!.curl).toContain(`--data-raw '[body elided: ${body.length} bytes, sha256 ${digest}]'`);
    const reports = ["proxy-junit.xml", "proxy-summary.json", "proxy-summary.md"];
    for (const report of reports) {
      expect((await stat(path.join(dir, report))).size, report).toBeLessThan(REPORT_BOUND);
      const text = await readFile(path.join(dir, report), "utf8");
      expect(text).not.toContain(KEY);
      expect(text).toMatch(report.endsWith(".json") ? /"count": 80\b/ : /\b80 (more )?finding/);
    }
    expect(Buffer.byteLength(lines.join("\n"))).toBeLessThan(REPORT_BOUND);
    expect(lines.join("\n")).not.toContain(KEY);
  });
});
