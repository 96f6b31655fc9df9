// covers: contract-tests/proxy/traffic-rules.ts, contract-tests/proxy/fingerprint.ts, contract-tests/proxy/start-proxy.ts
// The proxy's memory is bounded by design (docs/checking-a-server.md, What the proxy keeps): 500 exchanges of 1 MB
// bodies through a proxy whose heap is capped at 128 MB end with their reports and the right findings. A proxy that
// kept the bodies it compares across exchanges (about 500 MB here, four times its heap) runs out of memory long
// before the end.
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Agent, request } from "undici";
import { exitCodeOf, startChild, waitForOutput } from "../../lib/process.ts";
import { fromRoot, repoRoot } from "../../scripts/lib/paths.ts";

const FILES = "/studio/v1/library/files";
const KEY = "memory-test-key-5";
const FILE_COUNT = 250;
// The file whose reads do not show its update: the one finding the run must report.
const FORGETFUL = "file-7";
// RSS of the proxy's process at its peak, as docs/checking-a-server.md states it for a heap capped at 128 MB.
const RSS_BOUND = 384 * 1024 * 1024;

// Labels of about 1 MB as JSON, the same for a file each time: the file's id, then ten strings of 100,000 characters
// (made once: the test's own CPU goes to the traffic, not to building it).
const REST = Buffer.from(
  `${JSON.stringify(["", ...Array.from({ length: 10 }, (_, i) => `${i}`.repeat(100_000))]).slice(3)}}`,
);
/** `{"<field>":<the file's labels>}` with the fields given before it, as bytes. */
const withLabels = (id: string, fields: string) =>
  Buffer.concat([Buffer.from(`{${fields}"labels":[${JSON.stringify(id)}`), REST]);

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An upstream that accepts every update and answers every read with the labels the app sends that file, but one. */
async function upstream(): Promise<string> {
  const server: Server = createServer((req, res) => {
    const id = decodeURIComponent(req.url!.slice(FILES.length + 1));
    req.resume();
    req.on("end", () => {
      if (req.method === "PUT") {
        res.writeHead(200, { "x-request-id": "r-1" }).end();
        return;
      }
      const body = withLabels(
        id === FORGETFUL ? "something-else" : id,
        `"id":${JSON.stringify(id)},"name":"a.txt","size":1,"created_at":"2026-01-02T03:04:05Z",`,
      );
      res
        .writeHead(200, { "content-type": "application/json", "content-length": body.length, "x-request-id": "r-2" })
        .end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** The peak resident set of a process, from /proc (Linux). */
async function peakRss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

describe("the contract proxy's memory", { timeout: 120_000 }, () => {
  it("judges 500 exchanges of 1 MB bodies with its heap capped at 128 MB, and ends with its reports and the right findings", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "file-library-proxy-memory-"));
    const child = startChild(
      process.execPath,
      [
        "--max-old-space-size=128",
        "--import",
        "tsx",
        fromRoot("contract-tests/cli.ts"),
        "proxy",
        "--upstream",
        await upstream(),
        "--report-dir",
        dir,
      ],
      {
        cwd: repoRoot,
        env: { ...process.env, FILE_LIBRARY_API_KEY: KEY },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    cleanups.push(async () => {
      child.kill("SIGKILL");
      await exitCodeOf(child);
    });
    const [, url] = await waitForOutput(child, /listening on (http:\/\/\S+),/, 30_000);
    const agent = new Agent({ connections: 4 });
    cleanups.push(() => agent.close());
    const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };
    // Each file: an update of 1 MB, then a read of 1 MB; four files at a time.
    const work = Array.from({ length: FILE_COUNT }, (_, i) => `file-${i}`);
    const app = async () => {
      for (let id = work.shift(); id !== undefined; id = work.shift()) {
        const updated = await request(`${url}${FILES}/${id}`, {
          dispatcher: agent,
          method: "PUT",
          headers,
          body: withLabels(id, ""),
        });
        await updated.body.dump();
        expect(updated.statusCode).toBe(200);
        const read = await request(`${url}${FILES}/${id}`, { dispatcher: agent, headers });
        await read.body.dump({ limit: 2_000_000 });
        expect(Number(read.headers["content-length"])).toBeGreaterThan(1_000_000);
      }
    };
    await Promise.all([app(), app(), app(), app()]);
    const rss = await peakRss(child.pid!);
    child.kill("SIGINT");
    expect(await exitCodeOf(child), output).toBe(1);
    const summary = JSON.parse(await readFile(path.join(dir, "proxy-summary.json"), "utf8"));
    expect(summary.exchanges).toBe(2 * FILE_COUNT);
    expect(summary.notChecked).toEqual([]);
    expect(
      summary.findings.map((f: { side: string; operation: string; check: string; count: number }) => [
        f.side,
        f.operation,
        f.check,
        f.count,
      ]),
    ).toEqual([["service", "updateFile", "update_persisted", 1]]);
    // The print of labels of 1 MB: their start, their length and their digest, never the labels whole.
    expect(summary.findings[0].problem).toMatch(
      new RegExp(
        `^after sending labels \\["${FORGETFUL}","0000.*… \\(sha256 [0-9a-f]{16}\\), getFile shows \\["something-else".*\\(file "${FORGETFUL}", no other update between\\)$`,
      ),
    );
    expect(summary.findings[0].problem.length).toBeLessThan(600);
    expect(rss, `peak RSS ${Math.round(rss / 1024 / 1024)} MB`).toBeLessThan(RSS_BOUND);
  });
});
