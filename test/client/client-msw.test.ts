// covers: src/fetch.ts, src/options.ts
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { createFileLibraryClient, UnprocessableEntityError } from "../../src/index.ts";

// The app's set-up as MSW's docs show it: the client is made when the module loads, and MSW starts listening later,
// in beforeAll. A client that kept the fetch it found at creation would go to the network (files.example.test).
const BASE = "https://files.example.test";
const files = createFileLibraryClient({ baseUrl: BASE, apiKey: "msw-test-key", maxRetries: 0 }).files;

const FILE = `${BASE}/studio/v1/library/files/:fileId`;
const stored = { id: "f1", name: "a.txt", size: 5, created_at: "2026-01-02T03:04:05Z", labels: ["x"] };
const seen: Array<{ method: string; path: string; authorization: string | null; body?: unknown }> = [];

const server = setupServer(
  http.get(FILE, ({ params, request }) => {
    seen.push({
      method: "GET",
      path: new URL(request.url).pathname,
      authorization: request.headers.get("authorization"),
    });
    if (params.fileId !== stored.id) {
      return HttpResponse.json(
        { detail: `no file ${String(params.fileId)}` },
        { status: 422, headers: { "x-request-id": "msw-req-1" } },
      );
    }
    return HttpResponse.json(stored);
  }),
  http.put(FILE, async ({ request }) => {
    const body = await request.json();
    seen.push({
      method: "PUT",
      path: new URL(request.url).pathname,
      authorization: request.headers.get("authorization"),
      body,
    });
    Object.assign(stored, body);
    return new HttpResponse(null, { status: 200 });
  }),
  http.get(`${FILE}/download`, () => HttpResponse.text(`${BASE}/content/f1?signature=abc`)),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe("a client made at module level, before MSW's server.listen()", () => {
  it("has get, update and downloadUrl answered by MSW's handlers", async () => {
    expect(await files.get("f1")).toEqual(stored);
    await files.update("f1", { labels: ["y", "z"] });
    expect((await files.get("f1")).labels).toEqual(["y", "z"]);
    expect(await files.downloadUrl("f1")).toBe(`${BASE}/content/f1?signature=abc`);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      "GET /studio/v1/library/files/f1",
      "PUT /studio/v1/library/files/f1",
      "GET /studio/v1/library/files/f1",
    ]);
    expect(seen[1]).toMatchObject({ authorization: "Bearer msw-test-key", body: { labels: ["y", "z"] } });
  });

  it("gets an UnprocessableEntityError with the request id from MSW's 422", async () => {
    const error = await files.get("no-such-file").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({ status: 422, requestId: "msw-req-1" });
    expect((error as Error).message).toContain("no file no-such-file");
  });
});
