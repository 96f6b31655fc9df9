// covers: contract-tests/recording/read-recording.ts, contract-tests/runner/replay-command.ts
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { runReplayCommand } from "../../contract-tests/runner/replay-command.ts";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { browserFor, withBrowser } from "../support/browser.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";
import { sandbox, SANDBOX_KEY } from "../support/sandbox.ts";
import { serveFolder } from "../support/static-server.ts";

const chrome = browserFor("test/suite/replay-har-chromium.test.ts");

let scratch: string;
beforeAll(async () => (scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-har-"))));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A web page that uses the kit's client: reads a file, gets its download URL, meets an unknown id. */
async function buildPage(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  const entry = path.join(folder, "app.ts");
  await writeFile(
    entry,
    `import { createFileLibraryClient } from ${JSON.stringify(fromRoot("src/index.ts"))};
(globalThis as any).runApp = async (baseUrl: string, apiKey: string) => {
  const files = createFileLibraryClient({ baseUrl, apiKey, maxRetries: 0 }).files;
  const done = [(await files.get("doc-1")).id, await files.downloadUrl("doc-1")];
  await files.get("no-such-file").catch((error: Error) => done.push(error.name));
  return done.length;
};`,
  );
  await build({ entryPoints: [entry], outfile: path.join(folder, "app.js"), bundle: true, format: "esm", platform: "browser", target: "es2022", logLevel: "silent" });
  await writeFile(path.join(folder, "index.html"), `<!doctype html><title>app</title><script type="module" src="/app.js"></script>\n`);
}

interface Seen {
  request?: { method: string; url: string; headers: Record<string, string>; postData?: string };
  wallTime?: number;
  response?: { status: number; statusText: string; headers: Record<string, string>; mimeType: string };
  body?: { text: string; encoding?: "base64" };
}

/** Runs the page in Chromium and exports its traffic as a HAR 1.2, from the DevTools protocol's network events (as DevTools' own export does). */
async function harOfPage(pageUrl: string, baseUrl: string): Promise<unknown> {
  return withBrowser("chromium", chrome!, async (browser) => {
    const page = await browser.newPage();
    const cdp = await page.createCDPSession();
    const seen = new Map<string, Seen>();
    const finished: Array<Promise<void>> = [];
    const of = (id: string) => seen.get(id) ?? (seen.set(id, {}), seen.get(id)!);
    cdp.on("Network.requestWillBeSent", (e) => Object.assign(of(e.requestId), { request: e.request, wallTime: e.wallTime }));
    cdp.on("Network.responseReceived", (e) => Object.assign(of(e.requestId), { response: e.response }));
    cdp.on("Network.loadingFinished", (e) => {
      finished.push(
        cdp.send("Network.getResponseBody", { requestId: e.requestId }).then(
          (b) => void (of(e.requestId).body = { text: b.body, ...(b.base64Encoded ? { encoding: "base64" as const } : {}) }),
          () => {},
        ),
      );
    });
    await cdp.send("Network.enable");
    await page.goto(pageUrl);
    await page.waitForFunction(() => "runApp" in globalThis);
    expect(await page.evaluate((b, k) => (globalThis as unknown as { runApp(b: string, k: string): Promise<number> }).runApp(b, k), baseUrl, SANDBOX_KEY)).toBe(3);
    await Promise.all(finished);
    const pairs = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => ({ name, value }));
    const entries = [...seen.values()]
      .filter((s) => s.request && s.response)
      .map((s) => ({
        startedDateTime: new Date((s.wallTime ?? 0) * 1000).toISOString(),
        time: 0,
        request: { method: s.request!.method, url: s.request!.url, httpVersion: "HTTP/1.1", headers: pairs(s.request!.headers), queryString: [], cookies: [], headersSize: -1, bodySize: -1, ...(s.request!.postData ? { postData: { mimeType: s.request!.headers["Content-Type"] ?? "", text: s.request!.postData } } : {}) },
        response: { status: s.response!.status, statusText: s.response!.statusText, httpVersion: "HTTP/1.1", headers: pairs(s.response!.headers), cookies: [], content: { size: s.body?.text.length ?? 0, mimeType: s.response!.mimeType, ...(s.body ?? {}) }, redirectURL: "", headersSize: -1, bodySize: -1 },
        cache: {},
        timings: { send: 0, wait: 0, receive: 0 },
      }));
    return { log: { version: "1.2", creator: { name: "file-library-kit test, from Chromium's DevTools protocol", version: await browser.version() }, pages: [], entries } };
  });
}

/** Runs the replay command in this process; its lines and exit code. */
async function replay(args: string[]) {
  const output: string[] = [];
  const err = vi.spyOn(console, "error").mockImplementation((line: string) => void output.push(line));
  try {
    const code = await runReplayCommand([...args, "--report-dir", path.join(scratch, "reports")], "file-library-contract", { FILE_LIBRARY_API_KEY: SANDBOX_KEY });
    return { code, output: output.join("\n") };
  } finally {
    err.mockRestore();
  }
}

describe.skipIf(!chrome)("a HAR made by Chromium", { timeout: 60_000 }, () => {
  it("of a page that uses the client replays: exit 0 against the sandbox, exit 1 against a fault, the page and CORS preflights left out", async () => {
    const folder = path.join(scratch, "page");
    await buildPage(folder);
    const server = await serveFolder(folder);
    const recorded = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
    const har = path.join(scratch, "app.har");
    try {
      const made = (await harOfPage(`http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`, recorded.baseUrl)) as { log: { entries: Array<{ request: { method: string; url: string } }> } };
      // The page, its script and the browser's CORS preflights are in the HAR beside the app's three requests.
      const methods = made.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname.split("/").at(-1)}`);
      expect(methods).toEqual(expect.arrayContaining(["GET index.html", "GET app.js", "OPTIONS doc-1", "GET doc-1", "GET download", "GET no-such-file"]));
      await writeFile(har, JSON.stringify(made));
    } finally {
      await recorded.close();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const [fault, code, said] of [
      [undefined, 0, /passed: 3 exchanges, 0 duplicates, 3 replayed, 0 break\(s\); reports/],
      ["metadata-size-as-string", 1, /BREAK \(consumer\) line \d+: GET \/studio\/v1\/library\/files\/doc-1 as_the_app_saw_it: \$\.size was a number/],
    ] as const) {
      const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, ...(fault ? { fault } : {}) });
      try {
        const run = await replay([har, "--base-url", sb.baseUrl]);
        expect(run.code, run.output).toBe(code);
        expect(run.output).toMatch(said);
        expect(run.output).not.toContain(SANDBOX_KEY);
      } finally {
        await sb.close();
      }
    }
  });
});
