import { mkdir, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { build } from "esbuild";
import { expect } from "vitest";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { withBrowser } from "./browser.ts";
import { SANDBOX_FIXTURES } from "./contract-suite.ts";
import { sandbox, SANDBOX_KEY } from "./sandbox.ts";
import { serveFolder } from "./static-server.ts";

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
  await build({
    entryPoints: [entry],
    outfile: path.join(folder, "app.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
  });
  await writeFile(
    path.join(folder, "index.html"),
    `<!doctype html><title>app</title><script type="module" src="/app.js"></script>\n`,
  );
}

interface Seen {
  request?: { method: string; url: string; headers: Record<string, string>; postData?: string };
  wallTime?: number;
  response?: { status: number; statusText: string; headers: Record<string, string>; mimeType: string };
  body?: { text: string; encoding?: "base64" };
}

/** Runs the page in Chromium and exports its traffic as a HAR 1.2, from the DevTools protocol's network events (as DevTools' own export does). */
async function harOfPage(pageUrl: string, baseUrl: string, chrome: string): Promise<unknown> {
  return withBrowser("chromium", chrome, async (browser) => {
    const page = await browser.newPage();
    const cdp = await page.createCDPSession();
    const seen = new Map<string, Seen>();
    const finished: Array<Promise<void>> = [];
    const of = (id: string) => seen.get(id) ?? (seen.set(id, {}), seen.get(id)!);
    cdp.on("Network.requestWillBeSent", (e) =>
      Object.assign(of(e.requestId), { request: e.request, wallTime: e.wallTime }),
    );
    cdp.on("Network.responseReceived", (e) => Object.assign(of(e.requestId), { response: e.response }));
    cdp.on("Network.loadingFinished", (e) => {
      finished.push(
        cdp.send("Network.getResponseBody", { requestId: e.requestId }).then(
          (b) =>
            void (of(e.requestId).body = { text: b.body, ...(b.base64Encoded ? { encoding: "base64" as const } : {}) }),
          () => {},
        ),
      );
    });
    await cdp.send("Network.enable");
    await page.goto(pageUrl);
    await page.waitForFunction(() => "runApp" in globalThis);
    expect(
      await page.evaluate(
        (b, k) => (globalThis as unknown as { runApp(b: string, k: string): Promise<number> }).runApp(b, k),
        baseUrl,
        SANDBOX_KEY,
      ),
    ).toBe(3);
    await Promise.all(finished);
    const pairs = (headers: Record<string, string>) =>
      Object.entries(headers).map(([name, value]) => ({ name, value }));
    const entries = [...seen.values()]
      .filter((s) => s.request && s.response)
      .map((s) => ({
        startedDateTime: new Date((s.wallTime ?? 0) * 1000).toISOString(),
        time: 0,
        request: {
          method: s.request!.method,
          url: s.request!.url,
          httpVersion: "HTTP/1.1",
          headers: pairs(s.request!.headers),
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: -1,
          ...(s.request!.postData
            ? { postData: { mimeType: s.request!.headers["Content-Type"] ?? "", text: s.request!.postData } }
            : {}),
        },
        response: {
          status: s.response!.status,
          statusText: s.response!.statusText,
          httpVersion: "HTTP/1.1",
          headers: pairs(s.response!.headers),
          cookies: [],
          content: { size: s.body?.text.length ?? 0, mimeType: s.response!.mimeType, ...(s.body ?? {}) },
          redirectURL: "",
          headersSize: -1,
          bodySize: -1,
        },
        cache: {},
        timings: { send: 0, wait: 0, receive: 0 },
      }));
    return {
      log: {
        version: "1.2",
        creator: { name: "file-library-kit test, from Chromium's DevTools protocol", version: await browser.version() },
        pages: [],
        entries,
      },
    };
  });
}

/**
 * A HAR 1.2 that Chromium (at `chrome`) made of a page using the client against a sandbox, written in `scratch`;
 * resolves with its path. It holds the page, its script and the CORS preflights beside the app's three requests.
 */
export async function chromiumHar(scratch: string, chrome: string): Promise<string> {
  const folder = path.join(scratch, "page");
  await buildPage(folder);
  const server = await serveFolder(folder);
  const recorded = await sandbox({ fixturesFile: SANDBOX_FIXTURES });
  const har = path.join(scratch, "app.har");
  try {
    const made = (await harOfPage(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`,
      recorded.baseUrl,
      chrome,
    )) as { log: { entries: Array<{ request: { method: string; url: string } }> } };
    // The page, its script and the browser's CORS preflights are in the HAR beside the app's three requests.
    const methods = made.log.entries.map(
      (e) => `${e.request.method} ${new URL(e.request.url).pathname.split("/").at(-1)}`,
    );
    expect(methods).toEqual(
      expect.arrayContaining([
        "GET index.html",
        "GET app.js",
        "OPTIONS doc-1",
        "GET doc-1",
        "GET download",
        "GET no-such-file",
      ]),
    );
    await writeFile(har, JSON.stringify(made));
  } finally {
    await recorded.close();
    await new Promise((resolve) => server.close(resolve));
  }
  return har;
}
