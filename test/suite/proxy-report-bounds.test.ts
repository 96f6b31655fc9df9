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
    const proxy = await startProxy({
      upstream: await upstream(),
      reportDir: dir,
      env: { FILE_LIBRARY_API_KEY: KEY },
      say: (line) => lines.push(line),
    });
    cleanups.push(() => proxy.stop());
    const body = JSON.stringify({ data: `${KEY} `.repeat(45_000) });
    expect(body.length).toBeGreaterThan(900_000);
    for (let i = 0; i < UPLOADS; i++) {
      const answer = await fetch(`${proxy.url}/uploads/u-${i}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body,
      });
      expect(answer.status).toBe(404);
      await answer.arrayBuffer();
    }
    const run = await proxy.stop();
    expect(run.exitCode).toBe(1);
    expect(run.summary.exchanges).toBe(UPLOADS);
    expect(run.summary.findings.map((f) => f.check)).toEqual(Array(20).fill("operation_exists"));
    expect(run.summary.findingsLeftOut).toEqual([{ side: "app", check: "operation_exists", count: UPLOADS - 20 }]);
    const digest = createHash("sha256").update(body).digest("hex");
    expect(run.summary.findings[0]!.curl).toContain(
      `--data-raw '[body elided: ${body.length} bytes, sha256 ${digest}]'`,
    );
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

  it("keep 5 distinct messages of one kind, each counted, and count the findings of further ones: 100 updates of up to 900 KB lost on 100 files", async () => {
    // An upstream that accepts every update and forgets it: each file's read shows no labels.
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const id = decodeURIComponent(req.url!.split("/").at(-1)!);
        if (req.method === "PUT") return void res.writeHead(200).end();
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ id, name: "a.txt", size: 1, created_at: "2026-01-01T00:00:00Z", labels: [] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const lines: string[] = [];
    const dir = await mkdtemp(path.join(os.tmpdir(), "file-library-proxy-bounds-"));
    const proxy = await startProxy({
      upstream: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      reportDir: dir,
      env: { FILE_LIBRARY_API_KEY: KEY },
      say: (line) => lines.push(line),
    });
    cleanups.push(() => proxy.stop());
    const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
    for (let i = 0; i < UPLOADS; i++) {
      const file = `${proxy.url}/studio/v1/library/files/f-${i}`;
      await (
        await fetch(file, { method: "PUT", headers, body: JSON.stringify({ labels: [`${i} `.repeat(300_000)] }) })
      ).arrayBuffer();
      await (await fetch(file, { headers })).arrayBuffer();
    }
    const run = await proxy.stop();
    const [kind, ...others] = run.summary.findings;
    expect(others).toEqual([]);
    expect(kind).toMatchObject({
      side: "service",
      operation: "updateFile",
      check: "update_persisted",
      count: UPLOADS,
      messagesLeftOut: UPLOADS - 5,
    });
    expect(kind!.messages.map((m) => m.count)).toEqual([1, 1, 1, 1, 1]);
    expect(lines.filter((l) => l.startsWith("contract proxy: FINDING "))).toHaveLength(5);
    for (const report of ["proxy-junit.xml", "proxy-summary.json", "proxy-summary.md"]) {
      expect((await stat(path.join(dir, report))).size, report).toBeLessThan(REPORT_BOUND);
      const text = await readFile(path.join(dir, report), "utf8");
      expect(text).toMatch(
        report.endsWith(".json") ? /"messagesLeftOut": 95\b/ : /and 95 more finding\(s\) with other messages/,
      );
    }
    expect(lines).toContain("contract proxy:     and 95 more finding(s) with other messages, counted only");
    expect(Buffer.byteLength(lines.join("\n"))).toBeLessThan(REPORT_BOUND);
  });
});
