/**
 * The client's scenarios, run as they are in every runtime of the matrix (Node, Bun, Deno, workerd, Chromium,
 * Firefox) by test/consumers/client-package.test.ts, against the installed package and its public API only. Each scenario
 * reports what it saw; the test holds the expectations, the same for every runtime.
 */
import type { ClientOptions, FileLibraryClient } from "file-library-kit";

/** What the test hands the scenarios. */
export interface ScenarioConfig {
  /** The sandbox. */
  baseUrl: string;
  apiKey: string;
  /** A key the sandbox does not know: it must appear nowhere. */
  wrongKey: string;
  fileId: string;
  /** test/support/trouble-server.ts: `/flaky/<run>` answers 503 once, `/hang` never answers, `/stall` never ends its body. */
  troubleUrl: string;
  /** Unique per run, so that runs side by side do not share the flaky server's first answer. */
  run: string;
  /** A sandbox with CORS off, in browsers only: a refused request must say that CORS may be why. */
  noCorsUrl?: string;
}

/** The globals that exist only in Node (and runtimes that copy it): importing the package must read none. */
const NODE_ONLY = [
  "process",
  "Buffer",
  "global",
  "require",
  "module",
  "__dirname",
  "__filename",
  "setImmediate",
  "clearImmediate",
];

type Kit = typeof import("file-library-kit");

/** Imports the package while every Node-only global is watched; resolves with the package and the globals it read. */
async function importWatchingGlobals(): Promise<{ kit: Kit; touched: string[] }> {
  const touched = new Set<string>();
  const saved = NODE_ONLY.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const);
  const watched = saved.filter(([name, descriptor]) => {
    if (descriptor && !descriptor.configurable) return false;
    const read = () => (descriptor?.get ? descriptor.get.call(globalThis) : descriptor?.value);
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get: () => (touched.add(name), read()),
      set: (value) => Object.defineProperty(globalThis, name, { value, configurable: true, writable: true }),
    });
    return true;
  });
  try {
    return { kit: await import("file-library-kit"), touched: [...touched] };
  } finally {
    for (const [name, descriptor] of watched) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else delete (globalThis as Record<string, unknown>)[name];
    }
  }
}

/** An error as the test sees it. */
function seen(error: unknown, kit: Kit) {
  const e = error as Error & { status?: number; requestId?: string; attempts?: number };
  return {
    name: e.name,
    message: e.message,
    status: e.status,
    requestId: e.requestId,
    attempts: e.attempts,
    isFileLibraryError: error instanceof kit.FileLibraryError,
    classes: (
      [
        "ApiError",
        "UnprocessableEntityError",
        "AuthenticationError",
        "AbortError",
        "TimeoutError",
        "ConnectionError",
      ] as const
    ).filter((name) => error instanceof kit[name]),
    // Everything of the error an app might log.
    shown: [e.message, String(e.stack), JSON.stringify(e)].join("\n"),
  };
}

/** How a call failed, and after how long; a call that succeeds is reported as an error named "no error". */
async function failure(call: () => Promise<unknown>, kit: Kit) {
  const started = Date.now();
  let error: unknown = Object.assign(new Error("the call succeeded"), { name: "no error" });
  try {
    await call();
  } catch (thrown) {
    error = thrown;
  }
  return { ...seen(error, kit), ms: Date.now() - started };
}

/** An app's test against the fake of `file-library-kit/testing`: its fetch serves the client in-process, no server. */
async function fakeScenario(kit: Kit) {
  const { createFakeFileLibrary } = await import("file-library-kit/testing");
  const fake = createFakeFileLibrary({
    apiKey: "fake-key",
    files: [{ id: "f1", name: "a.txt", content: "hello", labels: ["x"] }],
  });
  const {
    files,
    withResponse: { files: withResponse },
  } = kit.createFileLibraryClient({ baseUrl: fake.baseUrl, apiKey: "fake-key", fetch: fake.fetch, maxRetries: 1 });
  await files.update("f1", { labels: ["y"] });
  fake.failNext("getFile", { status: 503, headers: { "retry-after": "0" } });
  const read = await withResponse.get("f1");
  const content = await (await fake.fetch(await files.downloadUrl("f1"))).text();
  const unknownId = await failure(() => files.get("nope"), kit);
  return {
    labels: read.data.labels,
    attempts: read.attempts,
    stored: fake.file("f1")?.labels,
    content,
    unknownId: unknownId.name,
  };
}

/** Runs every scenario in order (the update before the reads that see it); resolves with what each one saw. */
export async function runScenarios(config: ScenarioConfig) {
  const { kit, touched } = await importWatchingGlobals();
  const logs: string[] = [];
  const logger = {
    debug: (m: string) => logs.push(m),
    info: (m: string) => logs.push(m),
    warn: (m: string) => logs.push(m),
    error: (m: string) => logs.push(m),
  };
  const client = (options: ClientOptions = {}): FileLibraryClient =>
    kit.createFileLibraryClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      maxRetries: 0,
      logger,
      logLevel: "debug",
      ...options,
    });
  const files = client().files;
  const trouble = (prefix: string) => `${config.troubleUrl}/${prefix}`;

  // Only what must be given: every other option takes its default, the environment's where it has one.
  const get = await kit
    .createFileLibraryClient({ baseUrl: config.baseUrl, apiKey: config.apiKey })
    .files.get(config.fileId);
  await files.update(config.fileId, { labels: ["from-the-runtime", "ünïcödé"] });
  const afterUpdate = await files.get(config.fileId);
  const signedUrl = await files.downloadUrl(config.fileId);
  const content = await (await fetch(signedUrl)).text();
  const unknownId = await failure(() => files.get("no-such-file"), kit);
  const wrongKey = await failure(() => client({ apiKey: config.wrongKey }).files.get(config.fileId), kit);

  // Aborted once the answer's headers are in and its body is still coming: a request in flight, whatever the timing.
  const controller = new AbortController();
  const stalled = client({
    baseUrl: trouble("stall"),
    timeoutMs: 30_000,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      controller.abort();
      return response;
    },
  });
  const abort = await failure(() => stalled.files.get(config.fileId, { signal: controller.signal }), kit);

  const flaky = await client({ baseUrl: trouble(`flaky/${config.run}`), maxRetries: 1 }).withResponse.files.get(
    config.fileId,
  );
  const timeout = await failure(
    () => client({ baseUrl: trouble("hang"), timeoutMs: 500 }).files.get(config.fileId),
    kit,
  );
  const fake = await fakeScenario(kit);
  const corsRefused = config.noCorsUrl
    ? await failure(() => client({ baseUrl: config.noCorsUrl }).files.get(config.fileId), kit)
    : undefined;

  return {
    importTouched: touched,
    get: { id: get.id, name: get.name, size: get.size, labels: get.labels },
    updateThenGet: afterUpdate.labels,
    download: { origin: new URL(signedUrl).origin, content },
    unknownId,
    wrongKey: { ...wrongKey, keyInLogs: logs.some((line) => line.includes(config.wrongKey)), logLines: logs.length },
    abort,
    retryAfter503: { id: flaky.data.id, attempts: flaky.attempts },
    timeout,
    fake,
    corsRefused,
  };
}

/** What `runScenarios` resolves with. */
export type ScenarioResults = Awaited<ReturnType<typeof runScenarios>>;
