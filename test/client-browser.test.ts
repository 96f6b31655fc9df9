import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { buildClient } from "../scripts/lib/build-client.ts";
import { bin, fromRoot } from "../scripts/lib/paths.ts";
import { runCommand } from "../lib/process.ts";
import { browserFor, launchBrowser } from "./support/browser.ts";
import { sandbox, SANDBOX_KEY } from "./support/sandbox.ts";

const chrome = browserFor("test/client-browser.test.ts");
const WRONG_KEY = "wrong-key-from-the-page-7f3a";

let scratch: string;
let pageServer: Server;
let pageOrigin: string;
let browser: Browser;
let bundledFrom: string[];
const sandboxes: Array<Awaited<ReturnType<typeof sandbox>>> = [];
let config: { baseUrl: string; noCorsUrl: string; apiKey: string; wrongKey: string; fileId: string };

/** What the page reports of an error (test/fixtures/browser-app.ts). */
interface SeenError {
  name: string;
  message: string;
  requestId?: string;
  isUnprocessable: boolean;
  isAuthentication: boolean;
  isAbort: boolean;
  isConnection: boolean;
}

/** What the page reports of its round trip. */
interface RoundTrip {
  origin: string;
  before: { id: string; labels: string[] };
  afterUpdate: string[];
  signedUrl: string;
  content: string;
}

/** Serves a folder's files on 127.0.0.1 at a free port: the app's own origin. */
async function serveFolder(folder: string): Promise<Server> {
  const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript" };
  const server = createServer((req, res) => {
    const file = path.join(folder, path.basename(new URL(req.url ?? "/", "http://x").pathname) || "index.html");
    readFile(file).then(
      (body) => res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

describe.skipIf(!chrome)("the client in a real browser, built as an app bundles it, calling the sandbox on another origin", { timeout: 120_000 }, () => {
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-browser-"));
    // The package as it is built for publishing, installed where the app's bundler looks for it.
    const modules = path.join(scratch, "node_modules");
    const pkg = path.join(modules, "file-library-kit");
    const built = await buildClient(path.join(pkg, "dist"));
    expect(built.ok, built.message).toBe(true);
    await copyFile(fromRoot("package.json"), path.join(pkg, "package.json"));
    await symlink(fromRoot("node_modules", "openapi-fetch"), path.join(modules, "openapi-fetch"), "dir");
    await copyFile(fromRoot("test/fixtures/browser-app.ts"), path.join(scratch, "app.ts"));

    // What the app's author runs first: the app type-checks against the package's published types.
    const compilerOptions = { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler", lib: ["es2022", "dom"], types: [] };
    await writeFile(path.join(scratch, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["app.ts"] }));
    const typed = await runCommand(bin("tsc"), ["-p", "tsconfig.json"], { cwd: scratch });
    expect(typed.code, typed.output).toBe(0);

    const publicDir = path.join(scratch, "public");
    await mkdir(publicDir);
    const bundled = await build({
      entryPoints: [path.join(scratch, "app.ts")],
      outfile: path.join(publicDir, "app.js"),
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      metafile: true,
      logLevel: "silent",
    });
    bundledFrom = Object.keys(bundled.metafile.inputs);
    await writeFile(path.join(publicDir, "index.html"), `<!doctype html><title>app</title><script type="module" src="/app.js"></script>\n`);
    pageServer = await serveFolder(publicDir);
    pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;

    const fixturesFile = fromRoot("test/fixtures/sandbox-files.json");
    sandboxes.push(await sandbox({ fixturesFile }), await sandbox({ fixturesFile, corsOrigins: "none" }));
    config = { baseUrl: sandboxes[0]!.baseUrl, noCorsUrl: sandboxes[1]!.baseUrl, apiKey: SANDBOX_KEY, wrongKey: WRONG_KEY, fileId: "doc-1" };
    browser = await launchBrowser(chrome!);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(sandboxes.map((sb) => sb.close()));
    if (pageServer) await new Promise((resolve) => pageServer.close(resolve));
    await rm(scratch, { recursive: true, force: true });
  });

  /** Opens the app's page; every request it makes to anywhere but the three local origins is refused and recorded. */
  async function openApp(): Promise<{ page: Page; outside: string[] }> {
    const page = await browser.newPage();
    const local = new Set([pageOrigin, config.baseUrl, config.noCorsUrl]);
    const outside: string[] = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (local.has(new URL(url).origin)) return route.continue();
      outside.push(url);
      return route.abort();
    });
    await page.goto(`${pageOrigin}/index.html`);
    await page.waitForFunction(() => "checks" in globalThis);
    return { page, outside };
  }

  /** Runs one of the page's scenarios (see test/fixtures/browser-app.ts) and returns what it reported. */
  async function inPage<Result>(name: "roundTrip" | "unknownId" | "wrongKey" | "abort" | "corsRefused"): Promise<Result> {
    const { page, outside } = await openApp();
    try {
      type Checks = Record<string, (settings: typeof config) => Promise<unknown>>;
      const result = await page.evaluate(([check, settings]) => (globalThis as unknown as { checks: Checks }).checks[check]!(settings), [name, config] as const);
      expect(outside, "requests that left the machine").toEqual([]);
      return result as Result;
    } finally {
      await page.close();
    }
  }

  it("is bundled from the built package, not from src/", () => {
    expect(bundledFrom.filter((input) => input.includes("file-library-kit/dist/")).length).toBeGreaterThan(5);
    expect(bundledFrom.filter((input) => input.includes("/src/") || input.startsWith("src/"))).toEqual([]);
  });

  it("reads, updates and reads back a file, and the page fetches the signed URL's content", async () => {
    const result = await inPage<RoundTrip>("roundTrip");
    expect(result.origin).toBe(pageOrigin);
    expect(result.before).toEqual({ id: "doc-1", labels: ["a", "b"] });
    expect(result.afterUpdate).toEqual(["from-the-browser", "ünïcödé"]);
    expect(new URL(result.signedUrl).origin).toBe(config.baseUrl);
    expect(result.content).toBe("hello");
  });

  it("gets a 422 for an unknown id as UnprocessableEntityError, with the request id the sandbox exposes", async () => {
    const error = await inPage<SeenError>("unknownId");
    expect(error).toMatchObject({ name: "UnprocessableEntityError", isUnprocessable: true });
    expect(error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.message).toContain(`Request id: ${error.requestId}`);
    expect(error.message).not.toContain("..");
  });

  it("gets AuthenticationError for a wrong key, without the key in its message", async () => {
    const error = await inPage<SeenError>("wrongKey");
    expect(error).toMatchObject({ name: "AuthenticationError", isAuthentication: true });
    expect(error.message).not.toContain(WRONG_KEY);
    expect(error.message).not.toContain(SANDBOX_KEY);
  });

  it("stops a call when its AbortController aborts", async () => {
    expect(await inPage<SeenError>("abort")).toMatchObject({ name: "AbortError", isAbort: true });
  });

  it("against a sandbox with CORS off, gets a ConnectionError that says a CORS refusal looks exactly like this", async () => {
    const error = await inPage<SeenError>("corsRefused");
    expect(error).toMatchObject({ name: "ConnectionError", isConnection: true });
    expect(error.message).toContain(config.noCorsUrl);
    expect(error.message).toMatch(/CORS policy refuses fails exactly like this/);
  });
});
