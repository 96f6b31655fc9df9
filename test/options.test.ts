import { afterEach, describe, expect, it, vi } from "vitest";
import { createFileLibraryClient, InvalidArgumentError } from "../src/index.ts";
import { API_KEY, BASE_URL, fakeFetch, json, sampleMetadata } from "./support/fake-fetch.ts";

afterEach(() => vi.unstubAllEnvs());

describe("options", () => {
  it("default to FILE_LIBRARY_BASE_URL and FILE_LIBRARY_API_KEY", async () => {
    vi.stubEnv("FILE_LIBRARY_BASE_URL", "https://env.example.test/");
    vi.stubEnv("FILE_LIBRARY_API_KEY", "env-key");
    const { fetch, seen } = fakeFetch(json(sampleMetadata));
    await createFileLibraryClient({ fetch }).files.get("f");
    expect(seen[0]!.url).toBe("https://env.example.test/studio/v1/library/files/f");
    expect(seen[0]!.headers.get("authorization")).toBe("Bearer env-key");
  });

  it("prefer explicit values over the environment", async () => {
    vi.stubEnv("FILE_LIBRARY_BASE_URL", "https://env.example.test");
    vi.stubEnv("FILE_LIBRARY_API_KEY", "env-key");
    const { fetch, seen } = fakeFetch(json(sampleMetadata));
    await createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch }).files.get("f");
    expect(seen[0]!.url.startsWith(BASE_URL)).toBe(true);
    expect(seen[0]!.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
  });

  it.each([
    ["a runtime that refuses env reads (Deno without --allow-env)", () => new Proxy({}, { get: (_, name) => { throw new Error(`NotCapable: Requires env access to "${String(name)}"`); } })],
    ["no process at all (browsers, workers)", undefined],
  ])("count every variable as unset in %s: explicit options work, and a missing one says what to pass", async (_, env) => {
    vi.stubGlobal("process", env === undefined ? undefined : { env: env() });
    try {
      const { fetch, seen } = fakeFetch(json(sampleMetadata));
      await createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch }).files.get("f");
      expect(seen).toHaveLength(1);
      expect(() => createFileLibraryClient({ apiKey: API_KEY, fetch })).toThrow(/No base URL: pass \{ baseUrl \}/);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("keep a path prefix of the base URL", async () => {
    const { fetch, seen } = fakeFetch(json(sampleMetadata));
    await createFileLibraryClient({ baseUrl: `${BASE_URL}/gateway/`, apiKey: API_KEY, fetch }).files.get("f");
    expect(seen[0]!.url).toBe(`${BASE_URL}/gateway/studio/v1/library/files/f`);
  });

  it.each([
    [{ apiKey: API_KEY }, /No base URL.*FILE_LIBRARY_BASE_URL/],
    [{ baseUrl: BASE_URL }, /No API key.*FILE_LIBRARY_API_KEY/],
    [{ baseUrl: BASE_URL, apiKey: "  " }, /No API key/],
    [{ baseUrl: "files.example.test", apiKey: API_KEY }, /not an absolute URL/],
    [{ baseUrl: "ftp://files.example.test", apiKey: API_KEY }, /must use http or https/],
    [{ baseUrl: "https://u:p@files.example.test", apiKey: API_KEY }, /must not carry credentials/],
    [{ baseUrl: `${BASE_URL}?x=1`, apiKey: API_KEY }, /query or fragment/],
    [{ baseUrl: BASE_URL, apiKey: "has space" }, /whitespace/],
  ])("reject %j at creation with a clear error", (options, message) => {
    vi.stubEnv("FILE_LIBRARY_BASE_URL", "");
    vi.stubEnv("FILE_LIBRARY_API_KEY", "");
    expect(() => createFileLibraryClient(options)).toThrow(InvalidArgumentError);
    expect(() => createFileLibraryClient(options)).toThrow(message);
  });
});
