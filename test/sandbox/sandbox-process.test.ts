// covers: sandbox/main.ts, sandbox/start.ts, sandbox/sqlite-storage.ts, sandbox/line-writer.ts, lib/process.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { exitCodeOf, waitForOutput } from "../../lib/process.ts";
import { startScript } from "../support/processes.ts";
import { ensureBundle, FILES, SANDBOX_KEY } from "../support/sandbox.ts";

let scratch: string;
beforeAll(async () => {
  ensureBundle();
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-sandbox-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

const env = { ...process.env, FILE_LIBRARY_API_KEY: SANDBOX_KEY };
const auth = { authorization: `Bearer ${SANDBOX_KEY}` };

async function startMain(args: string[]) {
  const child = startScript("sandbox/main.ts", args, env);
  const [, baseUrl] = await waitForOutput(child, /listening at (http:\/\/\S+)/);
  return { child, baseUrl: baseUrl! };
}

describe("sandbox process", { timeout: 60_000 }, () => {
  it("loses no acknowledged write when killed with SIGKILL right after the 200", async () => {
    const data = path.join(scratch, "durable.sqlite");
    const first = await startMain(["--data", data]);
    const put = await fetch(`${first.baseUrl}${FILES}/file_demo_notes`, {
      method: "PUT",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ labels: ["kept-after-kill"], publicUrl: "https://cdn.example.test/n" }),
    });
    expect(put.status).toBe(200);
    first.child.kill("SIGKILL");
    await exitCodeOf(first.child);

    const second = await startMain(["--data", data]);
    try {
      const metadata = await (await fetch(`${second.baseUrl}${FILES}/file_demo_notes`, { headers: auth })).json();
      expect(metadata).toMatchObject({ labels: ["kept-after-kill"], publicUrl: "https://cdn.example.test/n" });
    } finally {
      second.child.kill("SIGKILL");
    }
  });

  it("refuses a second process on the same --data file, at once and saying why, while the first keeps serving", async () => {
    const data = path.join(scratch, "shared.sqlite");
    const first = await startMain(["--data", data]);
    try {
      const second = startScript("sandbox/main.ts", ["--data", data], env);
      const said = waitForOutput(second, /in use by another sandbox/);
      expect(await exitCodeOf(second)).toBe(2);
      expect((await said)[0]).toBeTruthy();
      expect((await fetch(`${first.baseUrl}${FILES}/file_demo_notes`, { headers: auth })).status).toBe(200);
    } finally {
      first.child.kill("SIGKILL");
      await exitCodeOf(first.child);
    }
    // Once the first is gone (even killed), the file is free again.
    const third = await startMain(["--data", data]);
    third.child.kill("SIGKILL");
  });

  it("finishes an in-flight request on SIGTERM, then exits 0", async () => {
    const { child, baseUrl } = await startMain([]);
    const signalled = waitForOutput(child, /SIGTERM, finishing in-flight requests/);
    const answer = new Promise<number>((resolve, reject) => {
      // With Expect: 100-continue the server answers "100 Continue" only once its handler runs:
      // from then on the request is in flight, and the body is sent only after the signal.
      const req = request(`${baseUrl}${FILES}/file_demo_notes`, {
        method: "PUT",
        headers: { ...auth, "content-type": "application/json", expect: "100-continue" },
      });
      req.on("continue", () => {
        child.kill("SIGTERM");
        void signalled.then(() => req.end(JSON.stringify({ labels: ["in-flight"] })));
      });
      req.on("response", (res) => (res.resume(), resolve(res.statusCode!)));
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(await answer).toBe(200);
    expect(await exitCodeOf(child)).toBe(0);
  });

  it("refuses to start without FILE_LIBRARY_API_KEY, with exit 2 and one clear line", async () => {
    const child = startScript("sandbox/main.ts", [], { ...process.env, FILE_LIBRARY_API_KEY: "" });
    const [line] = await Promise.all([waitForOutput(child, /sandbox: .*\n/), exitCodeOf(child)]);
    expect(child.exitCode).toBe(2);
    expect(line[0]).toContain("FILE_LIBRARY_API_KEY is not set");
  });

  it("refuses --data on a Node older than its SQLite driver (Node-API 10), with exit 2 and one clear line, not a crash", async () => {
    // The process plays a Node whose Node-API is 9, as Node 20 has.
    const olderNode = `--import=data:text/javascript,Object.defineProperty(process,'versions',{value:{...process.versions,napi:'9'}})`;
    const child = startScript("sandbox/main.ts", ["--port", "0", "--data", path.join(scratch, "old-node.db")], {
      ...env,
      NODE_OPTIONS: olderNode,
    });
    const [line] = await Promise.all([waitForOutput(child, /sandbox: .*\n/), exitCodeOf(child)]);
    expect(child.exitCode).toBe(2);
    expect(line[0]).toMatch(/--data needs Node 22\.14 or later \(this is Node v[\d.]+\): .* leave out --data/);
  });

  it("--help explains --cors-origin: its default (any origin, since it listens on 127.0.0.1) and none", async () => {
    const child = startScript("sandbox/main.ts", ["--help"], env);
    const [match] = await Promise.all([
      waitForOutput(child, /--cors-origin ORIGIN[\s\S]*turns CORS off[^\n]*\n/),
      exitCodeOf(child),
    ]);
    expect(child.exitCode).toBe(0);
    expect(match[0]).toMatch(
      /Default: any origin \(\*\), because the\s+sandbox is a development tool that listens on 127\.0\.0\.1/,
    );
    expect(match[0]).toContain("--cors-origin none");
  });

  it("refuses a --cors-origin that is not a web origin, with exit 2 and one clear line", async () => {
    const child = startScript("sandbox/main.ts", ["--cors-origin", "localhost:5173/app"], env);
    const [line] = await Promise.all([waitForOutput(child, /sandbox: .*\n/), exitCodeOf(child)]);
    expect(child.exitCode).toBe(2);
    expect(line[0]).toContain("--cors-origin takes a web origin such as http://localhost:5173");
  });

  it("refuses fixtures that do not match the format, naming the entry and field", async () => {
    const file = path.join(scratch, "bad-fixtures.json");
    await writeFile(file, JSON.stringify([{ id: "x", name: "n", content: 42 }]));
    const child = startScript("sandbox/main.ts", ["--fixtures", file], env);
    const [line] = await Promise.all([waitForOutput(child, /sandbox: .*\n/), exitCodeOf(child)]);
    expect(child.exitCode).toBe(2);
    expect(line[0]).toContain("/0/content must be string");
  });
});
