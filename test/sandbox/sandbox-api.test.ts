// covers: sandbox/core/api-key.ts, sandbox/core/constant-time.ts, sandbox/core/fixture-validator.ts, sandbox/core/fixtures.ts, sandbox/core/memory-storage.ts, sandbox/core/plain.ts, sandbox/core/service.ts, sandbox/core/storage.ts, sandbox/sqlite-storage.ts, sandbox/start.ts, sandbox/node-adapter.ts, sandbox/fixtures.ts, lib/openapi/load.ts, lib/openapi/media-type.ts, lib/openapi/methods.ts, lib/openapi/router.ts, lib/openapi/validation-errors.ts, lib/openapi/validator.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp } from "node:fs/promises";
import { request } from "node:http";
import os from "node:os";
import path from "node:path";
import { call, FILES, sandbox, SANDBOX_KEY } from "../support/sandbox.ts";
import { fromRoot } from "../../scripts/lib/paths.ts";

let sb: Awaited<ReturnType<typeof sandbox>>;
beforeAll(async () => {
  sb = await sandbox({ fixturesFile: fromRoot("test/fixtures/sandbox-files.json"), maxBodyBytes: 1024 });
});
afterAll(() => sb.close());

const json = (body: unknown): RequestInit => ({
  method: "PUT",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});
const metadata = async (id: string) =>
  (await call(sb.baseUrl, `${FILES}/${encodeURIComponent(id)}`)).json() as Promise<Record<string, unknown>>;

describe("sandbox: metadata and fixtures", () => {
  it("serves a fixture's metadata, with size the UTF-8 byte length of its content", async () => {
    const response = await call(sb.baseUrl, `${FILES}/doc-2`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ id: "doc-2", name: "ünïcode.txt", size: 9, labels: [] });
  });

  it("addresses an id with /, space, ?, # and % as one percent-encoded segment", async () => {
    expect(await metadata("a/b ü?#%")).toMatchObject({ id: "a/b ü?#%", size: 0 });
  });

  it("answers an unknown id with 422 on all three operations", async () => {
    const answers = await Promise.all([
      call(sb.baseUrl, `${FILES}/nope`),
      call(sb.baseUrl, `${FILES}/nope/download`),
      call(sb.baseUrl, `${FILES}/nope`, json({ labels: [] })),
    ]);
    expect(answers.map((r) => r.status)).toEqual([422, 422, 422]);
    expect(await answers[0]!.json()).toMatchObject({ code: "file_not_found" });
  });
});

describe("sandbox: auth", () => {
  it.each([
    ["no header", {}],
    ["a wrong key", { authorization: "Bearer not-the-key" }],
    ["another scheme", { authorization: `Basic ${SANDBOX_KEY}` }],
  ])("rejects %s with 401 on every operation", async (_, headers) => {
    for (const [path, init] of [
      [`${FILES}/doc-1`, {}],
      [`${FILES}/doc-1/download`, {}],
      [`${FILES}/doc-1`, json({ labels: ["x"] })],
    ] as const) {
      const response = await call(sb.baseUrl, path, {
        ...init,
        auth: false,
        headers: { ...((init as RequestInit).headers as object), ...headers },
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: "unauthorized" });
    }
    expect((await metadata("doc-1")).labels).toEqual(["a", "b"]);
  });
});

describe("sandbox: update", () => {
  it("replaces labels, keeps omitted fields, and clears with []", async () => {
    const put = (body: unknown) => call(sb.baseUrl, `${FILES}/doc-1`, json(body));
    const first = await put({ labels: ["x", "y"] });
    expect(first.status).toBe(200);
    expect(await first.text()).toBe("");
    expect(await metadata("doc-1")).toMatchObject({
      labels: ["x", "y"],
      publicUrl: "https://cdn.example.test/report.txt",
    });
    expect((await put({ publicUrl: "https://cdn.example.test/v2" })).status).toBe(200);
    expect(await metadata("doc-1")).toMatchObject({ labels: ["x", "y"], publicUrl: "https://cdn.example.test/v2" });
    expect((await put({})).status).toBe(200);
    expect(await metadata("doc-1")).toMatchObject({ labels: ["x", "y"], publicUrl: "https://cdn.example.test/v2" });
    expect((await put({ labels: [] })).status).toBe(200);
    expect((await metadata("doc-1")).labels).toEqual([]);
  });

  it.each([
    ["labels as a string", { labels: "a,b" }, "labels"],
    ["labels items as numbers", { labels: [1] }, "labels.0"],
    ["labels items as null", { labels: [null] }, "labels.0"],
    ["publicUrl as a number", { publicUrl: 5 }, "publicUrl"],
  ])("rejects %s with 422 naming the field, and changes nothing", async (_, body, field) => {
    const before = await metadata("doc-2");
    const response = await call(sb.baseUrl, `${FILES}/doc-2`, json(body));
    expect(response.status).toBe(422);
    const error = (await response.json()) as { message: string; detail: Array<{ loc: unknown[] }> };
    expect(error.message).toContain(field);
    expect(error.detail.map((d) => d.loc.slice(1).join("."))).toContain(field);
    expect(await metadata("doc-2")).toEqual(before);
  });

  // docs/decisions.md, D05: the bodies the service's official SDKs send, on both storages.
  it.each([
    ["in memory", () => undefined],
    [
      "in a SQLite data file",
      async () => path.join(await mkdtemp(path.join(os.tmpdir(), "file-library-sdk-bodies-")), "files.db"),
    ],
  ])(
    "accepts the official SDKs' bodies %s: null keeps a field, other members are ignored, publicUrl is any string",
    async (_, dataFile) => {
      const own = await sandbox({
        fixturesFile: fromRoot("test/fixtures/sandbox-files.json"),
        dataFile: await dataFile(),
      });
      try {
        const put = async (body: unknown) => (await call(own.baseUrl, `${FILES}/doc-1`, json(body))).status;
        const stored = async () =>
          (await call(own.baseUrl, `${FILES}/doc-1`)).json() as Promise<Record<string, unknown>>;
        // The npm ai21 SDK's files.update({ fileId, labels: ["a"], publicUrl: null }), byte for byte.
        expect(await put({ fileId: "doc-1", labels: ["a"], publicUrl: null })).toBe(200);
        expect(await stored()).toMatchObject({
          id: "doc-1",
          labels: ["a"],
          publicUrl: "https://cdn.example.test/report.txt",
        });
        // The Python SDK 1.0.0 to 2.2.4, labels only.
        expect(await put({ publicUrl: null, labels: ["b", "c"] })).toBe(200);
        expect(await stored()).toMatchObject({ labels: ["b", "c"], publicUrl: "https://cdn.example.test/report.txt" });
        // The Python SDK's documented example, and another file's id in the body, which names nothing.
        expect(await put({ fileId: "doc-2", publicUrl: "www.example.com", labels: null })).toBe(200);
        expect(await stored()).toMatchObject({ labels: ["b", "c"], publicUrl: "www.example.com" });
        expect((await (await call(own.baseUrl, `${FILES}/doc-2`)).json()) as unknown).toMatchObject({ labels: [] });
        expect((await (await call(own.baseUrl, `${FILES}/doc-2`)).json()) as object).not.toHaveProperty("publicUrl");
      } finally {
        await own.close();
      }
    },
  );

  it.each([
    ["a body that is not JSON", { body: "{nope", headers: { "content-type": "application/json" } }, "invalid_json"],
    [
      "a body without a JSON content type",
      { body: '{"labels":[]}', headers: { "content-type": "text/plain" } },
      "unsupported_media_type",
    ],
    ["no body at all", { headers: { "content-type": "application/json" } }, "invalid_json"],
  ])("rejects %s with 422, never 500", async (_, init, code) => {
    const response = await call(sb.baseUrl, `${FILES}/doc-2`, { method: "PUT", ...init });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code });
  });

  it("answers 413 to a body over the limit declared by Content-Length, before reading it", async () => {
    const response = await call(sb.baseUrl, `${FILES}/doc-2`, json({ labels: ["x".repeat(2000)] }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "body_too_large" });
  });

  it("answers 413 to a chunked body that grows over the limit", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${sb.baseUrl}${FILES}/doc-2`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${SANDBOX_KEY}`,
          "content-type": "application/json",
          "transfer-encoding": "chunked",
        },
      });
      req.on("response", (res) => (res.resume(), resolve(res.statusCode!)));
      req.on("error", reject);
      req.write(`{"labels":["${"y".repeat(800)}`);
      req.end(`${"y".repeat(800)}"]}`);
    });
    expect(status).toBe(413);
  });
});

describe("sandbox: download", () => {
  it("returns a signed absolute URL on the sandbox whose content downloads with the right length", async () => {
    const response = await call(sb.baseUrl, `${FILES}/doc-2/download`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const url = await response.text();
    expect(url.startsWith(`${sb.baseUrl}/`)).toBe(true);
    const content = await fetch(url);
    expect(content.status).toBe(200);
    expect(content.headers.get("content-length")).toBe("9");
    expect(await content.text()).toBe("日本語");
  });

  it.each([
    [
      "a changed signature",
      (u: URL) =>
        u.searchParams.set(
          "signature",
          u.searchParams.get("signature")!.replace(/^./, (c) => (c === "0" ? "1" : "0")),
        ),
    ],
    ["a later expiry", (u: URL) => u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 3600))],
    ["another file's id", (u: URL) => (u.pathname = u.pathname.replace("doc-2", "doc-1"))],
    ["no signature", (u: URL) => u.searchParams.delete("signature")],
  ])("refuses a URL with %s (403)", async (_, tamper) => {
    const url = new URL(await (await call(sb.baseUrl, `${FILES}/doc-2/download`)).text());
    tamper(url);
    const response = await fetch(url);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "invalid_signature" });
  });
});

describe("sandbox: routing and logging", () => {
  it("answers an unknown route with 404 and a wrong method with 405 and Allow", async () => {
    expect((await call(sb.baseUrl, "/studio/v1/library/files")).status).toBe(404);
    const wrong = await call(sb.baseUrl, `${FILES}/doc-1`, { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, PUT");
    const download = await call(sb.baseUrl, `${FILES}/doc-1/download`, { method: "POST" });
    expect(download.headers.get("allow")).toBe("GET");
  });

  it("sends x-request-id on every answer, and logs one line per request without the key", async () => {
    sb.logs.length = 0;
    const answers = await Promise.all([
      call(sb.baseUrl, `${FILES}/doc-1`),
      call(sb.baseUrl, `${FILES}/nope`),
      call(sb.baseUrl, "/nowhere"),
      call(sb.baseUrl, `${FILES}/doc-1`, { auth: false }),
    ]);
    const ids = answers.map((r) => r.headers.get("x-request-id"));
    expect(ids.every((id) => /^[0-9a-f-]{36}$/.test(id ?? ""))).toBe(true);
    expect(new Set(ids).size).toBe(4);
    expect(sb.logs).toHaveLength(4);
    for (const line of sb.logs) expect(line).toMatch(/^(GET|PUT) \/\S* \d{3} \d+\.\dms [0-9a-f-]{36}$/);
    expect(sb.logs.join("\n")).not.toContain(SANDBOX_KEY);
  });
});
