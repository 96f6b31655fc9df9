// covers: src/client.ts
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createFileLibraryClient, InvalidArgumentError, MalformedResponseError } from "../../src/index.ts";
import { API_KEY, BASE_URL, fakeFetch, json, sampleMetadata, text } from "../support/fake-fetch.ts";

const clientWith = (fetch: ReturnType<typeof fakeFetch>["fetch"]) =>
  createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch });

/** Reads one scripted 2xx answer with a method that parses its body, and expects a MalformedResponseError saying `problem`. */
async function expectMalformed(
  response: Response,
  operation: "getFile" | "getFileDownloadUrl",
  problem: RegExp,
): Promise<void> {
  const { files } = clientWith(fakeFetch(response).fetch);
  const error = await (operation === "getFile" ? files.get("file_1") : files.downloadUrl("file_1")).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MalformedResponseError);
  expect((error as MalformedResponseError).message).toMatch(problem);
  expect((error as MalformedResponseError).operation).toBe(operation);
}

describe("files.get", () => {
  it("GETs the file path with the bearer key and resolves to the metadata", async () => {
    const { fetch, seen } = fakeFetch(json(sampleMetadata));
    const metadata = await clientWith(fetch).files.get("file_1");
    expect(metadata).toEqual(sampleMetadata);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe("GET");
    expect(seen[0]!.url).toBe(`${BASE_URL}/studio/v1/library/files/file_1`);
    expect(seen[0]!.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
  });

  it("keeps fields a newer server adds", async () => {
    const { fetch } = fakeFetch(json({ ...sampleMetadata, checksum: "abc" }));
    expect(await clientWith(fetch).files.get("file_1")).toMatchObject({ checksum: "abc" });
  });

  it.each([
    ["not JSON", text("<html>oops</html>", 200, "text/html"), /not JSON/],
    ["a JSON array", json([sampleMetadata]), /not a JSON object/],
    ["JSON null", json(null), /not a JSON object/],
    ["empty", text("", 200, "application/json"), /not JSON/],
  ])("rejects a 2xx body that is %s with MalformedResponseError", (_, response, problem) =>
    expectMalformed(response, "getFile", problem),
  );

  it("sends per-call and client headers", async () => {
    const { fetch, seen } = fakeFetch(json(sampleMetadata));
    const client = createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, headers: { "x-app": "a" } });
    await client.files.get("file_1", { headers: { "x-trace": "t" } });
    expect(seen[0]!.headers.get("x-app")).toBe("a");
    expect(seen[0]!.headers.get("x-trace")).toBe("t");
  });
});

describe("files.update", () => {
  it("PUTs the JSON body and resolves to undefined", async () => {
    const { fetch, seen } = fakeFetch(new Response(null, { status: 200 }));
    const result = await clientWith(fetch).files.update("file_1", {
      labels: ["a", "b"],
      publicUrl: "https://x.test/f",
    });
    expect(result).toBeUndefined();
    expect(seen[0]!.method).toBe("PUT");
    expect(seen[0]!.url).toBe(`${BASE_URL}/studio/v1/library/files/file_1`);
    expect(seen[0]!.headers.get("content-type")).toBe("application/json");
    expect(seen[0]!.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
    expect(JSON.parse(seen[0]!.body)).toEqual({ labels: ["a", "b"], publicUrl: "https://x.test/f" });
  });

  it("sends {} as a valid no-op", async () => {
    const { fetch, seen } = fakeFetch(new Response(null, { status: 200 }));
    await clientWith(fetch).files.update("file_1", {});
    expect(seen[0]!.body).toBe("{}");
  });

  it.each([
    ["an empty body", () => new Response("", { status: 200 })],
    ["an empty JSON body", () => text("", 200, "application/json")],
    ["null", () => json(null)],
    ["{}", () => json({})],
  ])("accepts %s as success", async (_, respond) => {
    const { fetch } = fakeFetch(respond);
    await expect(clientWith(fetch).files.update("file_1", { labels: [] })).resolves.toBeUndefined();
  });
});

describe("files.downloadUrl", () => {
  const signed = "https://files.example.test/dl/file_1?expires=1&signature=abc";

  it("GETs the download path asking for text, and returns the text body", async () => {
    const { fetch, seen } = fakeFetch(text(signed));
    expect(await clientWith(fetch).files.downloadUrl("file_1")).toBe(signed);
    expect(seen[0]!.url).toBe(`${BASE_URL}/studio/v1/library/files/file_1/download`);
    expect(seen[0]!.headers.get("accept")).toMatch(/^text\/plain/);
    expect(seen[0]!.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
  });

  it("unwraps a JSON string under application/json", async () => {
    const { fetch } = fakeFetch(json(signed));
    expect(await clientWith(fetch).files.downloadUrl("file_1")).toBe(signed);
  });

  it("trims a trailing newline", async () => {
    const { fetch } = fakeFetch(text(`${signed}\n`));
    expect(await clientWith(fetch).files.downloadUrl("file_1")).toBe(signed);
  });

  it.each([
    ["a relative URL", text("/dl/file_1"), /not an absolute URL/],
    ["a non-http URL", text("ftp://files.example.test/f"), /ftp, not http/],
    ["an empty body", text(""), /empty/],
    ["a JSON object", json({ url: signed }), /not a JSON string/],
    ["two URLs", text(`${signed} ${signed}`), /not a single URL/],
    ["an HTML page", text("<html>login</html>", 200, "text/html"), /not an absolute URL/],
    // The message shows the NUL escaped, in the problem and in the body's excerpt alike.
    [
      "a URL followed by NUL",
      text(`${signed}\u0000`),
      /has a control character \(\\u0000 at \d+\).*body: https:\/\/\S+\\u0000\)/,
    ],
  ])("rejects %s with MalformedResponseError", (_, response, problem) =>
    expectMalformed(response, "getFileDownloadUrl", problem),
  );
});

describe("raw", () => {
  it("is the authenticated openapi-fetch client", async () => {
    const { fetch, seen } = fakeFetch(json(sampleMetadata));
    const { data } = await clientWith(fetch).raw.GET("/studio/v1/library/files/{file_id}", {
      params: { path: { file_id: "file_1" } },
    });
    expect(data?.name).toBe("report.pdf");
    expect(seen[0]!.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
  });
});

// Without middleware the methods send their request themselves; with it, through openapi-fetch. What reaches the
// server must be the same either way, byte for byte, for every operation, with client and per-call headers.
describe("the request on the wire, with and without middleware on raw", () => {
  type Seen = { method: string; url: string; headers: Record<string, string>; body: string };
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        // Hop-by-hop headers say how the connection is used, not what was asked.
        const { connection: _c, "keep-alive": _k, ...headers } = req.headers as Record<string, string>;
        seen.push({ method: req.method!, url: req.url!, headers, body });
        if (req.url!.endsWith("/download"))
          res.writeHead(200, { "content-type": "text/plain" }).end("https://cdn.example.test/f");
        else if (req.method === "PUT") res.writeHead(200).end();
        else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(sampleMetadata));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const calls = async (client: ReturnType<typeof createFileLibraryClient>) => {
    seen.length = 0;
    await client.files.get("a/b c");
    await client.files.update(
      "a/b c",
      { labels: ["x", "ü"], publicUrl: "https://p.example/x" },
      { headers: { "content-type": "application/json; charset=utf-8" } },
    );
    await client.files.downloadUrl("a/b c", { headers: { "X-Call": "2", accept: "text/plain" } });
    return seen.map((s) => ({ ...s }));
  };

  it("is the same for every operation", async () => {
    const options = { baseUrl, apiKey: API_KEY, headers: { "X-Client": "1", "x-call": "client" } };
    const direct = await calls(createFileLibraryClient(options));
    const throughOpenapiFetch = createFileLibraryClient(options);
    throughOpenapiFetch.raw.use({ onRequest: () => undefined });
    const viaMiddleware = await calls(throughOpenapiFetch);
    expect(direct).toEqual(viaMiddleware);
    // And it is what the spec and the options ask for.
    expect(direct.map((s) => `${s.method} ${s.url}`)).toEqual([
      "GET /studio/v1/library/files/a%2Fb%20c",
      "PUT /studio/v1/library/files/a%2Fb%20c",
      "GET /studio/v1/library/files/a%2Fb%20c/download",
    ]);
    expect(direct[0]!.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      "x-client": "1",
      "x-call": "client",
    });
    expect(direct[1]!.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(direct[1]!.body)).toEqual({ labels: ["x", "ü"], publicUrl: "https://p.example/x" });
    expect(direct[2]!.headers).toMatchObject({ accept: "text/plain", "x-call": "2" });
  });

  it("a header fetch cannot send is an InvalidArgumentError, before anything is sent", async () => {
    seen.length = 0;
    const client = createFileLibraryClient({ baseUrl, apiKey: API_KEY });
    await expect(client.files.get("f", { headers: { "x-bad": "line\nbreak" } })).rejects.toThrow(InvalidArgumentError);
    expect(() => createFileLibraryClient({ baseUrl, apiKey: API_KEY, headers: { "bad name": "v" } })).toThrow(
      /A header name or value is not valid in HTTP/,
    );
    expect(seen).toHaveLength(0);
  });
});

describe("the middleware path reads answers as the direct one does", () => {
  const withMiddleware = (fetch: ReturnType<typeof fakeFetch>["fetch"], options = {}) => {
    const client = createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, maxRetries: 0, ...options });
    client.raw.use({ onRequest: () => undefined });
    return client;
  };
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable("it succeeded"),
      (e: unknown) => e as ApiError,
    );

  it("an empty error body is no body", async () => {
    const error = await failure(withMiddleware(fakeFetch(new Response("", { status: 422 })).fetch).files.get("f"));
    expect(error.body).toBeUndefined();
    expect(error.message).toBe(
      "getFile failed with HTTP 422 (GET /studio/v1/library/files/f). The file id may not exist, or the request body may be invalid.",
    );
  });

  it("an error body is cut at the call's own limit, and says so", async () => {
    const body = JSON.stringify({ message: "x".repeat(200) });
    const error = await failure(
      withMiddleware(fakeFetch(new Response(body, { status: 422 })).fetch, { maxResponseBytes: 1_000 }).files.get("f", {
        maxResponseBytes: 50,
      }),
    );
    expect(error.message).toContain("Its body was cut at 50 bytes (maxResponseBytes)");
    expect(error.body).toBe(body.slice(0, 50));
  });

  it("a short error body is kept whole, with the answer's status and headers, and is not said to be cut", async () => {
    const answer = new Response(JSON.stringify({ message: "no" }), { status: 409, headers: { "x-request-id": "r-1" } });
    const error = await failure(withMiddleware(fakeFetch(answer).fetch, { maxResponseBytes: 1_000 }).files.get("f"));
    expect(error.body).toEqual({ message: "no" });
    expect([error.status, error.requestId]).toEqual([409, "r-1"]);
    expect(error.message).not.toContain("was cut");
  });

  it("an answer without a body (an update's 204) is passed on as it is", async () => {
    const client = withMiddleware(fakeFetch(new Response(null, { status: 204 })).fetch);
    await expect(client.withResponse.files.update("f", { labels: [] })).resolves.toMatchObject({
      response: { status: 204 },
    });
  });

  it("a long error body is read only up to the limit, though openapi-fetch reads an error body whole", async () => {
    let pulled = 0;
    const long = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled++;
            controller.enqueue(new Uint8Array(1_024).fill(0x78));
            if (pulled === 1_000) controller.close();
          },
        }),
        { status: 422 },
      );
    const error = await failure(withMiddleware(fakeFetch(long).fetch, { maxResponseBytes: 100 }).files.get("f"));
    expect(error.message).toContain("Its body was cut at 100 bytes (maxResponseBytes)");
    expect(error.body).toBe("x".repeat(100));
    // The stream may have queued a chunk ahead; the rest of the megabyte was never asked for.
    expect(pulled).toBeLessThan(5);
  });

  it("a 2xx body is cut at the call's own limit", async () => {
    const error = await failure(
      withMiddleware(fakeFetch(json(sampleMetadata)).fetch).files.get("f", { maxResponseBytes: 10 }),
    );
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error.message).toContain("the body is over 10 bytes (maxResponseBytes)");
  });
});

describe("what a malformed 2xx says", () => {
  it("names the operation, the status, the problem, the content type (or none) and the body", async () => {
    const { fetch } = fakeFetch(new Response("<html>", { status: 200 }));
    const error = (await clientWith(fetch)
      .files.get("f")
      .catch((e: unknown) => e)) as MalformedResponseError;
    expect(error.message).toBe(
      "getFile got HTTP 200 but the body is not JSON (content type text/plain;charset=UTF-8; body: <html>): the server breaks the File Library contract.",
    );
    const bare = new Response(new Uint8Array([60]), { status: 200 });
    const untyped = (await clientWith(fakeFetch(bare).fetch)
      .files.get("f")
      .catch((e: unknown) => e)) as MalformedResponseError;
    expect(untyped.message).toBe(
      "getFile got HTTP 200 but the body is not JSON (content type none; body: <): the server breaks the File Library contract.",
    );
  });
});
