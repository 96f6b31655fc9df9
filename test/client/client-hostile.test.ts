// covers: src/response-limit.ts, src/response-body.ts, src/send.ts, src/redact.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import {
  ApiError,
  createFileLibraryClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  FileLibraryError,
  MalformedResponseError,
  UnprocessableEntityError,
  type Fetch,
} from "../../src/index.ts";
import { MAX_URL_LENGTH } from "../../src/response-body.ts";
import { API_KEY, BASE_URL, sampleMetadata } from "../support/fake-fetch.ts";

const respond =
  (
    body: BodyInit | null,
    status = 200,
    headers: Record<string, string> = { "content-type": "application/json" },
  ): Fetch =>
  async () =>
    new Response(body, { status, headers });
const client = (fetch: Fetch, options: Parameters<typeof createFileLibraryClient>[0] = {}) =>
  createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, maxRetries: 0, ...options }).files;
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Error,
  );
const deep = (levels: number) => `${'{"error":'.repeat(levels)}{"message":"deepest"}${"}".repeat(levels)}`;

describe("hostile answers: every failure is a FileLibraryError that says what was wrong", () => {
  it("a 422 nested 5,000 deep is an UnprocessableEntityError, not a RangeError from the redaction", async () => {
    const error = await failureOf(client(respond(deep(5_000), 422)).get("f1"));
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(JSON.stringify((error as ApiError).body)).toContain("left out");
    expect(() => JSON.stringify(error)).not.toThrow();
  });

  it("a 2xx body over maxResponseBytes is a MalformedResponseError naming the limit; the rest is never read", async () => {
    let pulled = 0;
    // An endless body: a client that read it whole would never finish.
    const endless = new ReadableStream<Uint8Array>({
      pull: (c) => void (pulled++, c.enqueue(new Uint8Array(64 * 1024).fill(0x20))),
    });
    const error = await failureOf(client(respond(endless), { maxResponseBytes: 100_000 }).get("f1"));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error!.message).toMatch(/over 100000 bytes \(maxResponseBytes\)/);
    expect(pulled).toBeLessThan(10);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(1_048_576);
  });

  it("an error body over the limit gives the status's error, says it was cut, and keeps only an excerpt", async () => {
    const error = (await failureOf(
      client(respond("x".repeat(300_000), 422, { "content-type": "text/plain" }), { maxResponseBytes: 200_000 }).get(
        "f1",
      ),
    )) as ApiError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.message).toMatch(/body was cut at 200000 bytes \(maxResponseBytes\)/);
    expect(String(error.body).length).toBeLessThanOrEqual(4_097);
  });

  // RFC 8259 8.1: JSON MUST NOT start with a BOM. A default TextDecoder drops it in silence, so the client never saw it.
  it.each([
    ["metadata", (c: ReturnType<typeof client>) => c.get("f1"), JSON.stringify(sampleMetadata), "application/json"],
    [
      "a download URL as a JSON string",
      (c: ReturnType<typeof client>) => c.downloadUrl("f1"),
      JSON.stringify("https://cdn.example.test/f1"),
      "application/json",
    ],
  ])(
    "%s that starts with a byte-order mark is a MalformedResponseError that says so",
    async (_, call, json, contentType) => {
      const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(json)]);
      const error = await failureOf(call(client(respond(bytes, 200, { "content-type": contentType }))));
      expect(error).toBeInstanceOf(MalformedResponseError);
      expect(error!.message).toContain("but the body starts with a byte-order mark, which JSON must not (RFC 8259)");
    },
  );

  it("a download URL longer than a URL may be is a MalformedResponseError, before any parsing", async () => {
    const long = `https://cdn.example.test/${"a".repeat(MAX_URL_LENGTH)}`;
    const error = await failureOf(client(respond(long, 200, { "content-type": "text/plain" })).downloadUrl("f1"));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error!.message).toMatch(/longer than a URL may be \(8192 characters\)/);
    const huge = await failureOf(
      client(respond("h".repeat(900_000), 200, { "content-type": "text/plain" })).downloadUrl("f1"),
    );
    expect(huge!.message).toMatch(/longer than a URL may be/);
  });

  it("invalid UTF-8 in a JSON answer is a MalformedResponseError, not text with U+FFFD", async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ ...sampleMetadata, name: "XX" }));
    bytes.set([0xc3, 0x28], bytes.indexOf(0x58));
    const error = await failureOf(client(respond(bytes)).get("f1"));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error!.message).toContain("not valid UTF-8 (byte \\xC3 at offset");
    expect(error!.message).toContain('"name":"\\xC3("');
  });

  it("JSON that is ISO-8859-1, or names a member twice, is refused as the contract suite refuses it (json_well_formed)", async () => {
    const latin1 = Uint8Array.from(JSON.stringify({ ...sampleMetadata, name: "Café.pdf" }), (c) => c.charCodeAt(0));
    const notUtf8 = await failureOf(client(respond(latin1)).get("f1"));
    expect(notUtf8).toBeInstanceOf(MalformedResponseError);
    expect(notUtf8!.message).toContain("Caf\\xE9.pdf");
    const twice = await failureOf(
      client(respond(`{"size":"1234",${JSON.stringify(sampleMetadata).slice(1)}`)).get("f1"),
    );
    expect(twice).toBeInstanceOf(MalformedResponseError);
    expect(twice!.message).toMatch(/^getFile got HTTP 200 but the body names "size" twice in one object/);
  });
});

describe("redirects are not followed", () => {
  let service: Server;
  let other: Server;
  const otherSaw: string[] = [];
  const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  beforeAll(async () => {
    other = createServer((req, res) => {
      otherSaw.push(`${req.method} ${req.url}`);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(sampleMetadata));
    });
    service = createServer((req, res) => {
      req.resume();
      res.writeHead(307, { location: `${url(other)}${req.url}` }).end();
    });
    await Promise.all([service, other].map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))));
  });
  afterAll(() => Promise.all([service, other].map((s) => new Promise((resolve) => s.close(resolve)))));

  it("a 307 to another origin gives an ApiError that says so; the update's body never reaches that origin", async () => {
    const files = createFileLibraryClient({ baseUrl: url(service), apiKey: API_KEY, maxRetries: 0 }).files;
    const error = (await failureOf(files.update("f1", { labels: ["secret-plan"] }))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(307);
    expect(error.message).toMatch(/follows no redirect/);
    expect(await failureOf(files.get("f1"))).toBeInstanceOf(ApiError);
    expect(otherSaw).toEqual([]);
  });
});

// Generated hostile answers to every operation, at every status: whatever comes back, the call either resolves
// with valid data or rejects with a FileLibraryError (never a TypeError, SyntaxError or RangeError).
const STATUSES = [
  200, 201, 204, 206, 300, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 409, 413, 422, 429, 500, 502, 503, 599,
];
const hostileBody = fc.oneof(
  fc.integer({ min: 1, max: 20_000 }).map((levels) => deep(levels)),
  fc.integer({ min: 1, max: 20_000 }).map((levels) => `${"[".repeat(levels)}${"]".repeat(levels)}`),
  fc.integer({ min: 1, max: 3_000_000 }).map((size) => "x".repeat(size)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value).slice(0, -1)),
  fc.uint8Array({ maxLength: 200 }),
  fc.constantFrom(
    "",
    "null",
    '"https://cdn.example.test/x"',
    JSON.stringify(sampleMetadata),
    '{"detail":[{"loc":null,"msg":{}}]}',
    '"' + "\\".repeat(9) + '"',
  ),
);
const contentType = fc.constantFrom(
  "application/json",
  "text/plain",
  "text/html",
  "application/problem+json",
  "application/octet-stream",
  "",
);

describe("generated hostile answers (fast-check)", () => {
  it("every operation, every status: valid data or a FileLibraryError", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("get", "update", "downloadUrl"),
        fc.constantFrom(...STATUSES),
        hostileBody,
        contentType,
        async (operation, status, body, type) => {
          const nullBody = status === 204 || status === 304;
          const files = client(respond(nullBody ? null : body, status, type ? { "content-type": type } : {}), {
            maxResponseBytes: 1_000_000,
          });
          const call = operation === "update" ? files.update("f1", { labels: [] }) : files[operation]("f1");
          const error = await failureOf(call);
          if (error !== undefined)
            expect(error, `${operation} ${status} ${type}: ${error.name}: ${error.message}`).toBeInstanceOf(
              FileLibraryError,
            );
        },
      ),
      { numRuns: 400, seed: 20261123 },
    );
  });
});

describe("an error body cut at the limit that still parses as JSON", () => {
  it("is kept as a bounded excerpt, not stringified without end", async () => {
    // 200,000 levels deep, then padding: the cut falls in the padding, so what was read is valid JSON.
    const body = `${"[".repeat(200_000)}${"]".repeat(200_000)}${" ".repeat(300_000)}`;
    const error = (await failureOf(client(respond(body, 422), { maxResponseBytes: 500_000 }).get("f1"))) as ApiError;
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(String(error.body).length).toBeLessThanOrEqual(4_097);
    expect(error.message).toMatch(/was cut/);
  });
});
