// covers: src/index.ts, lib/openapi/standalone.ts, scripts/lib/build-client.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { bin, fromRoot } from "../../scripts/lib/paths.ts";
import { installInto, lintPackage, run } from "../support/packages.ts";
import { PACK_WAIT_MS, packed } from "../support/packed.ts";
import { sandbox, SANDBOX_KEY } from "../support/sandbox.ts";
import { prepareApp, RUNTIMES, usable } from "../support/runtimes.ts";
import { troubleServer, type TroubleServer } from "../support/trouble-server.ts";
import type { ScenarioConfig } from "../runtimes/scenarios.ts";

// What an app does with the published client: import it, type-check against it, run it.
const ESM_APP = `import { createFileLibraryClient, UnprocessableEntityError, type FileMetadata } from "file-library-kit";
import spec from "file-library-kit/openapi.json" with { type: "json" };

const client = createFileLibraryClient();
const file: FileMetadata = await client.files.get("doc-1");
const check = () => {
  // @ts-expect-error labels are strings: the published types must say so
  void client.files.update("doc-1", { labels: [1] });
};
void check;
let unknown = "no error";
try {
  await client.files.get("no-such-file");
} catch (error) {
  if (error instanceof UnprocessableEntityError) unknown = \`\${error.name} \${error.status}\`;
}
console.log(JSON.stringify({ name: file.name, size: file.size, unknown, specVersion: spec.info.version }));
`;

// The same in a CommonJS app, as Node apps without "type": "module" and Jest's default set-up load packages.
const CJS_APP = `const { createFileLibraryClient, UnprocessableEntityError } = require("file-library-kit");
const client = createFileLibraryClient();
client.files.get("doc-1").then(async (file) => {
  const unknown = await client.files.get("no-such-file").catch((error) => error instanceof UnprocessableEntityError && \`\${error.name} \${error.status}\`);
  console.log(JSON.stringify({ name: file.name, unknown }));
});
`;

// An app that loads both builds: its own code imports the package, a CommonJS dependency requires it.
const DUAL_APP = `import { createRequire } from "node:module";
import * as imported from "file-library-kit";
const required = createRequire(import.meta.url)("file-library-kit");
const error = await required.createFileLibraryClient().files.get("no-such-file").catch((e) => e);
console.log(JSON.stringify({
  sameClasses: imported.UnprocessableEntityError === required.UnprocessableEntityError,
  requiredErrorIsImportedClass: error instanceof imported.UnprocessableEntityError && error instanceof imported.FileLibraryError,
}));
`;

// A Jest test as Jest's default configuration runs it: a plain .test.cjs that requires the package.
const JEST_TEST = `const { createFileLibraryClient, UnprocessableEntityError } = require("file-library-kit");

test("reads a file and gets a typed 422 for an unknown id", async () => {
  const files = createFileLibraryClient().files;
  expect((await files.get("doc-1")).name).toBe("report.txt");
  await expect(files.get("no-such-file")).rejects.toBeInstanceOf(UnprocessableEntityError);
});
`;

const FILE = "test/consumers/client-package.test.ts";
const WRONG_KEY = "wrong-key-from-the-runtime-7f3a";
let scratch: string;
let app: string;
let tarball: string;
const sandboxes: Array<Awaited<ReturnType<typeof sandbox>>> = [];
const fixturesFile = fromRoot("test/fixtures/sandbox-files.json");

/** A fresh sandbox with the test fixtures, closed after the file's tests. */
async function freshSandbox(config: Parameters<typeof sandbox>[0] = {}) {
  const sb = await sandbox({ fixturesFile, ...config });
  sandboxes.push(sb);
  return sb;
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-package-"));
  tarball = await packed("client");
  app = await installInto(path.join(scratch, "app"), tarball, { type: "module" });
}, PACK_WAIT_MS);
afterAll(async () => {
  await Promise.all(sandboxes.map((sb) => sb.close()));
  await rm(scratch, { recursive: true, force: true });
});

describe("the client package, installed from its tarball", { timeout: 240_000 }, () => {
  it("passes publint and arethetypeswrong in every resolution mode (node10, node16 CommonJS and ESM, bundler)", async () => {
    await lintPackage(tarball, ["--exclude-entrypoints", "./openapi.yaml"]);
    const installed = JSON.parse(await readFile(path.join(app, "node_modules/file-library-kit/package.json"), "utf8"));
    expect(Object.keys(installed.dependencies)).toEqual(["openapi-fetch"]);
    expect(await readdir(path.join(app, "node_modules"))).not.toContain("ajv");
  });

  it("type-checks and runs in an ESM app", async () => {
    await writeFile(path.join(app, "app.ts"), ESM_APP);
    await run(
      bin("tsc"),
      [
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
        "--lib",
        "es2022,dom",
        "--resolveJsonModule",
        "--outDir",
        "out",
        "app.ts",
      ],
      app,
    );
    const sb = await freshSandbox();
    const output = await run(process.execPath, ["out/app.js"], app, {
      ...process.env,
      FILE_LIBRARY_BASE_URL: sb.baseUrl,
      FILE_LIBRARY_API_KEY: SANDBOX_KEY,
    });
    expect(JSON.parse(output.trim())).toEqual({
      name: "report.txt",
      size: 5,
      unknown: "UnprocessableEntityError 422",
      specVersion: JSON.parse(await readFile(fromRoot("package.json"), "utf8")).version,
    });
  });

  it.each(["node", "bun"])("is required by a CommonJS script in %s", async (runtime) => {
    await writeFile(path.join(app, "app.cjs"), CJS_APP);
    const sb = await freshSandbox();
    const command = runtime === "node" ? process.execPath : bin("bun");
    const output = await run(command, ["app.cjs"], app, {
      ...process.env,
      FILE_LIBRARY_BASE_URL: sb.baseUrl,
      FILE_LIBRARY_API_KEY: SANDBOX_KEY,
    });
    expect(JSON.parse(output.trim())).toEqual({ name: "report.txt", unknown: "UnprocessableEntityError 422" });
  });

  it.each(["node", "bun"])(
    "is one copy in %s when an app both imports and requires it: instanceof holds across the two",
    async (runtime) => {
      await writeFile(path.join(app, "dual.mjs"), DUAL_APP);
      const sb = await freshSandbox();
      const command = runtime === "node" ? process.execPath : bin("bun");
      const output = await run(command, ["dual.mjs"], app, {
        ...process.env,
        FILE_LIBRARY_BASE_URL: sb.baseUrl,
        FILE_LIBRARY_API_KEY: SANDBOX_KEY,
      });
      expect(JSON.parse(output.trim())).toEqual({ sameClasses: true, requiredErrorIsImportedClass: true });
    },
  );

  it("works in a Jest test with Jest's default configuration", async () => {
    await writeFile(path.join(app, "client.test.cjs"), JEST_TEST);
    const sb = await freshSandbox();
    const output = await run(bin("jest"), [], app, {
      ...process.env,
      FILE_LIBRARY_BASE_URL: sb.baseUrl,
      FILE_LIBRARY_API_KEY: SANDBOX_KEY,
    });
    expect(output).toMatch(/Tests:\s+1 passed, 1 total/);
  });
});

describe("the same scenarios in every runtime, from the installed package (test/runtimes/scenarios.ts)", {
  timeout: 120_000,
}, () => {
  let trouble: TroubleServer;
  beforeAll(async () => {
    await prepareApp(app);
    // The scenarios type-check against the package's published types, as an app's code does. The fake's types name
    // msw's HttpHandler (its mswHandlers()); this app has no msw, and skips library checks as most app templates do.
    const compilerOptions = {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: "es2022",
      module: "nodenext",
      moduleResolution: "nodenext",
      lib: ["es2022", "dom"],
      types: [],
      allowImportingTsExtensions: true,
    };
    await writeFile(path.join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["runtimes"] }));
    await run(bin("tsc"), ["-p", "tsconfig.json"], app);
    trouble = await troubleServer();
  }, 120_000);
  afterAll(() => trouble?.close());

  // A runtime that cannot start fails under CI=true (usable throws); elsewhere the case is skipped, never counted passed.
  it.for(RUNTIMES.map((runtime) => [runtime.name, runtime] as const))("%s", async ([, runtime], { skip }) => {
    if (!(await usable(runtime, FILE))) return skip(`${runtime.name} cannot start here`);
    const sb = await freshSandbox();
    const config: ScenarioConfig = {
      baseUrl: sb.baseUrl,
      apiKey: SANDBOX_KEY,
      wrongKey: WRONG_KEY,
      fileId: "doc-1",
      troubleUrl: trouble.url,
      run: runtime.name,
      ...(runtime.browser && { noCorsUrl: (await freshSandbox({ corsOrigins: "none" })).baseUrl }),
    };
    const results = await runtime.run(app, config);
    console.log(`${runtime.name} ${await runtime.version()}: every scenario ran`);

    expect(results.importTouched, "Node-only globals read while importing the package").toEqual([]);
    expect(results.get).toEqual({ id: "doc-1", name: "report.txt", size: 5, labels: ["a", "b"] });
    expect(results.updateThenGet).toEqual(["from-the-runtime", "ünïcödé"]);
    expect(results.download).toEqual({ origin: sb.baseUrl, content: "hello" });

    expect(results.unknownId).toMatchObject({
      name: "UnprocessableEntityError",
      status: 422,
      isFileLibraryError: true,
      classes: ["ApiError", "UnprocessableEntityError"],
    });
    expect(results.unknownId.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(results.unknownId.message).toContain(`Request id: ${results.unknownId.requestId}`);

    expect(results.wrongKey).toMatchObject({
      name: "AuthenticationError",
      status: 401,
      classes: ["ApiError", "AuthenticationError"],
      keyInLogs: false,
    });
    expect(results.wrongKey.logLines, "the debug log saw the call").toBeGreaterThan(0);
    expect(results.wrongKey.shown).not.toContain(WRONG_KEY);
    expect(results.wrongKey.shown).not.toContain(SANDBOX_KEY);

    // Aborted in flight, long before its 30 s timeout.
    expect(results.abort).toMatchObject({ name: "AbortError", classes: ["AbortError"], isFileLibraryError: true });
    expect(results.abort.ms).toBeLessThan(30_000);
    expect(results.retryAfter503).toEqual({ id: "doc-1", attempts: 2 });
    expect(results.timeout).toMatchObject({ name: "TimeoutError", classes: ["TimeoutError", "ConnectionError"] });
    expect(results.timeout.ms).toBeGreaterThanOrEqual(490);

    expect(results.fake, "the fake of file-library-kit/testing").toEqual({
      labels: ["y"],
      attempts: 2,
      stored: ["y"],
      content: "hello",
      unknownId: "UnprocessableEntityError",
    });

    if (runtime.browser) {
      expect(results.corsRefused).toMatchObject({ name: "ConnectionError", classes: ["ConnectionError"] });
      expect(results.corsRefused!.message).toContain(config.noCorsUrl);
      expect(results.corsRefused!.message).toMatch(/allows this origin \(CORS\)/);
    } else {
      expect(results.corsRefused).toBeUndefined();
    }
  });
});
