import { describe, expect, it } from "vitest";
import { createFileLibraryClient, MalformedResponseError } from "../src/index.ts";
import { API_KEY, BASE_URL, fakeFetch, json, sampleMetadata, text } from "./support/fake-fetch.ts";

const clientWith = (fetch: ReturnType<typeof fakeFetch>["fetch"]) =>
  createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch });

/** Reads one scripted 2xx answer with a method that parses its body, and expects a MalformedResponseError saying `problem`. */
async function expectMalformed(response: Response, operation: "getFile" | "getFileDownloadUrl", problem: RegExp): Promise<void> {
  const { files } = clientWith(fakeFetch(response).fetch);
  const error = await (operation === "getFile" ? files.get("file_1") : files.downloadUrl("file_1")).catch((e: unknown) => e);
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
  ])("rejects a 2xx body that is %s with MalformedResponseError", (_, response, problem) => expectMalformed(response, "getFile", problem));

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
    const result = await clientWith(fetch).files.update("file_1", { labels: ["a", "b"], publicUrl: "https://x.test/f" });
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
    ["a JSON object", json({ url: signed }), /not a string/],
    ["two URLs", text(`${signed} ${signed}`), /not a single URL/],
    ["an HTML page", text("<html>login</html>", 200, "text/html"), /not an absolute URL/],
  ])("rejects %s with MalformedResponseError", (_, response, problem) => expectMalformed(response, "getFileDownloadUrl", problem));
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
