// covers: sandbox/fake.ts, sandbox/fake-spec.ts, sandbox/fetch-adapter.ts, sandbox/msw-adapter.ts, sandbox/msw-module.ts, sandbox/fault-layer.ts
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { setupServer } from "msw/node";
import {
  AuthenticationError,
  ConnectionError,
  createFileLibraryClient,
  InternalServerError,
  TimeoutError,
  UnprocessableEntityError,
} from "../../src/index.ts";
import { createFakeFileLibrary } from "../../sandbox/fake.ts";
import { nodeRequestListener } from "../../sandbox/node-adapter.ts";
import { failedChecks, FILE_ID, runContractSuite, SANDBOX_FIXTURES, SEED } from "../support/contract-suite.ts";
import { ensureBundle } from "../support/sandbox.ts";

ensureBundle();
const FILES = [{ id: "f1", name: "a.txt", content: "hello", labels: ["x"] }];
const fakeAndClient = (clientOptions: Parameters<typeof createFileLibraryClient>[0] = {}) => {
  const fake = createFakeFileLibrary({ apiKey: "test-key", files: FILES });
  const client = createFileLibraryClient({
    baseUrl: fake.baseUrl,
    apiKey: "test-key",
    fetch: fake.fetch,
    maxRetries: 0,
    ...clientOptions,
  });
  return { fake, files: client.files, withResponse: client.withResponse.files };
};

/** Runs a call on fake timers to its end: the client's backoff and timeouts, and the fake's delays, pass at once. */
async function onFakeTimers<T>(run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers();
  try {
    const settled = run();
    await vi.runAllTimersAsync();
    return await settled;
  } finally {
    vi.useRealTimers();
  }
}

describe("createFakeFileLibrary: the service's semantics in-process, for apps' tests", () => {
  it("reads, updates (replacing labels, keeping omitted fields) and serves the signed URL's content through its fetch", async () => {
    const { fake, files } = fakeAndClient();
    expect(await files.get("f1")).toMatchObject({ id: "f1", name: "a.txt", size: 5, labels: ["x"] });
    await files.update("f1", { labels: ["y"] });
    await files.update("f1", { publicUrl: "https://cdn.example.test/a.txt" });
    expect(fake.file("f1")).toMatchObject({ labels: ["y"], publicUrl: "https://cdn.example.test/a.txt" });
    const url = await files.downloadUrl("f1");
    expect(url.startsWith(`${fake.baseUrl}/`)).toBe(true);
    expect(await (await fake.fetch(url)).text()).toBe("hello");
    expect(fake.file("nope")).toBeUndefined();
  });

  it("file() hands the app a copy: changing it neither throws nor reaches the stored file", async () => {
    const { fake, files } = fakeAndClient();
    const copy = fake.file("f1")!;
    copy.labels.push("changed");
    copy.name = "changed.txt";
    expect(fake.file("f1")).toMatchObject({ name: "a.txt", labels: ["x"] });
    expect(await files.get("f1")).toMatchObject({ name: "a.txt", labels: ["x"] });
  });

  it("answers as the contract says: 422 for an unknown id or an invalid body, 401 for a wrong key", async () => {
    const { fake, files } = fakeAndClient();
    await expect(files.get("nope")).rejects.toBeInstanceOf(UnprocessableEntityError);
    const invalid = await fake.fetch(`${fake.baseUrl}/studio/v1/library/files/f1`, {
      method: "PUT",
      headers: { authorization: "Bearer test-key", "content-type": "application/json" },
      body: JSON.stringify({ labels: "not-a-list" }),
    });
    expect(invalid.status).toBe(422);
    expect(fake.file("f1")!.labels).toEqual(["x"]);
    const wrongKey = createFileLibraryClient({
      baseUrl: fake.baseUrl,
      apiKey: "other-key",
      fetch: fake.fetch,
      maxRetries: 0,
    });
    await expect(wrongKey.files.get("f1")).rejects.toBeInstanceOf(AuthenticationError);
  });

  // docs/decisions.md, D05: what the official SDKs send, which the kit's own client would refuse to send.
  it("accepts the official SDKs' update bodies: null keeps a field, fileId is ignored, publicUrl is any string", async () => {
    const fake = createFakeFileLibrary({
      apiKey: "test-key",
      files: [...FILES, { id: "f2", name: "b.txt", content: "", publicUrl: "https://cdn.example.test/b" }],
    });
    const put = async (id: string, body: unknown) =>
      (
        await fake.fetch(`${fake.baseUrl}/studio/v1/library/files/${id}`, {
          method: "PUT",
          headers: { authorization: "Bearer test-key", "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).status;
    // The npm ai21 SDK's files.update({ fileId, labels: ["a"], publicUrl: null }).
    expect(await put("f2", { fileId: "f2", labels: ["a"], publicUrl: null })).toBe(200);
    expect(fake.file("f2")).toEqual({
      id: "f2",
      name: "b.txt",
      size: 0,
      created_at: expect.any(String),
      labels: ["a"],
      publicUrl: "https://cdn.example.test/b",
    });
    // The Python SDK 1.0.0 to 2.2.4, labels only, on a file with no public URL: none appears.
    expect(await put("f1", { publicUrl: null, labels: ["y"] })).toBe(200);
    expect(fake.file("f1")).toEqual({
      id: "f1",
      name: "a.txt",
      size: 5,
      created_at: expect.any(String),
      labels: ["y"],
    });
    // The Python SDK's documented example; the fileId of another file changes nothing there.
    expect(await put("f1", { fileId: "f2", publicUrl: "www.example.com", labels: null })).toBe(200);
    expect(fake.file("f1")).toMatchObject({ labels: ["y"], publicUrl: "www.example.com" });
    expect(fake.file("f2")).toMatchObject({ labels: ["a"], publicUrl: "https://cdn.example.test/b" });
  });

  it("failNext makes the next calls of one operation fail with the status, headers and body given, then recovers", async () => {
    const { fake, files, withResponse } = fakeAndClient({ maxRetries: 1 });
    fake.failNext("getFile", { status: 503, headers: { "retry-after": "0" }, times: 1 });
    expect((await withResponse.get("f1")).attempts).toBe(2);

    fake.failNext("getFile", { status: 500, body: { message: "disk on fire" }, times: 2 });
    const error = await files.get("f1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as Error).message).toContain("disk on fire");
    expect(await files.downloadUrl("f1"), "other operations are not touched").toMatch(/^https:/);
    expect((await files.get("f1")).id).toBe("f1");
  });

  it("delayNext delays a call (a client's timeout fires) and dropNext loses its connection (ConnectionError)", async () => {
    const { fake, files } = fakeAndClient();
    fake.delayNext("getFile", 2_000);
    await expect(files.get("f1", { timeoutMs: 50 })).rejects.toBeInstanceOf(TimeoutError);
    fake.dropNext("updateFile");
    const dropped = await files.update("f1", { labels: [] }).catch((e: unknown) => e);
    expect(dropped).toBeInstanceOf(ConnectionError);
    expect(dropped).not.toBeInstanceOf(TimeoutError);
    expect(fake.file("f1")!.labels, "a dropped update stored nothing").toEqual(["x"]);
  });

  it("dropNext with times 3 fails a call of the default client, which retries twice, as docs/testing-your-app.md says", async () => {
    // The doc's client: no maxRetries of its own. One drop is only retried.
    const { fake, files, withResponse } = fakeAndClient({ maxRetries: undefined });
    fake.dropNext("updateFile");
    expect((await onFakeTimers(() => withResponse.update("f1", { labels: ["y"] }))).attempts).toBe(2);
    fake.dropNext("updateFile", { times: 3 });
    const dropped = await onFakeTimers(() => files.update("f1", { labels: ["z"] }).catch((e: unknown) => e));
    expect(dropped).toBeInstanceOf(ConnectionError);
    expect(dropped).toMatchObject({ operation: "updateFile", attempts: 3 });
    expect(fake.file("f1")!.labels).toEqual(["y"]);
  });

  it("delayNext with times 3 past timeoutMs fails a call of the default client with TimeoutError, as docs/testing-your-app.md says", async () => {
    // The doc's client: no maxRetries of its own. One delay is only retried, and the call succeeds.
    const { fake, withResponse, files } = fakeAndClient({ maxRetries: undefined, timeoutMs: 50 });
    fake.delayNext("getFile", 5_000);
    expect((await onFakeTimers(() => withResponse.get("f1"))).attempts).toBe(2);
    fake.delayNext("getFile", 5_000, { times: 3 });
    const late = await onFakeTimers(() => files.get("f1").catch((e: unknown) => e));
    expect(late).toBeInstanceOf(TimeoutError);
    expect(late).toMatchObject({ operation: "getFile", attempts: 3 });
  });

  it("says which URL it answers on when it is fetched at another", async () => {
    const { fake } = fakeAndClient();
    await expect(fake.fetch("https://elsewhere.test/studio/v1/library/files/f1")).rejects.toThrow(
      /answers on https:\/\/file-library\.fake, not https:\/\/elsewhere/,
    );
  });
});

// The app's set-up as MSW's docs show it: the client is made when the module loads, MSW listens later.
const mswFake = createFakeFileLibrary({ apiKey: "msw-key", files: FILES, baseUrl: "https://files.example.test" });
const moduleLevelClient = createFileLibraryClient({
  baseUrl: "https://files.example.test",
  apiKey: "msw-key",
  maxRetries: 0,
}).files;

describe("the fake's MSW handlers, serving a client made before server.listen()", () => {
  const server = setupServer(...mswFake.mswHandlers());
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterAll(() => server.close());

  it("serve get, update, downloadUrl and the signed URL's content, and a 422", async () => {
    expect((await moduleLevelClient.get("f1")).name).toBe("a.txt");
    await moduleLevelClient.update("f1", { labels: ["from-msw"] });
    expect(mswFake.file("f1")!.labels).toEqual(["from-msw"]);
    expect(await (await fetch(await moduleLevelClient.downloadUrl("f1"))).text()).toBe("hello");
    await expect(moduleLevelClient.get("nope")).rejects.toBeInstanceOf(UnprocessableEntityError);
  });

  it("turn dropNext into MSW's network error", async () => {
    mswFake.dropNext("getFile");
    await expect(moduleLevelClient.get("f1")).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe("the fake keeps the contract", { timeout: 120_000 }, () => {
  let server: Server;
  beforeAll(async () => {
    // The fake at a real address, through a thin node:http adapter: the same service the fake's fetch serves.
    const files = JSON.parse(readFileSync(SANDBOX_FIXTURES, "utf8"));
    const fake = createFakeFileLibrary({ apiKey: "sandbox-test-key-5f2b9c", files });
    server = createServer(nodeRequestListener(fake.service, { maxBodyBytes: 1024 * 1024, log: () => {} }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("passes the contract suite with write checks on", async () => {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const run = await runContractSuite({
      baseUrl,
      apiKey: "sandbox-test-key-5f2b9c",
      fileId: FILE_ID,
      seed: SEED,
      writeChecks: true,
    });
    expect(failedChecks(run), run.output).toEqual([]);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.summary.checks.filter((c) => c.state === "skipped")).toEqual([]);
  });
});
