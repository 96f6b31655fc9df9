import { afterEach, describe, expect, it, vi } from "vitest";
import { createFileLibraryClient, InvalidArgumentError } from "../../src/index.ts";
import { checkNumber, resolveOptions, type NumericOption } from "../../src/options.ts";
import { API_KEY, BASE_URL, fakeFetch, json, sampleMetadata } from "../support/fake-fetch.ts";

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
    [
      "a runtime that refuses env reads (Deno without --allow-env)",
      () =>
        new Proxy(
          {},
          {
            get: (_, name) => {
              throw new Error(`NotCapable: Requires env access to "${String(name)}"`);
            },
          },
        ),
    ],
    ["no process at all (browsers, workers)", undefined],
  ])(
    "count every variable as unset in %s: explicit options work, and a missing one says what to pass",
    async (_, env) => {
      vi.stubGlobal("process", env === undefined ? undefined : { env: env() });
      try {
        const { fetch, seen } = fakeFetch(json(sampleMetadata));
        await createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch }).files.get("f");
        expect(seen).toHaveLength(1);
        expect(() => createFileLibraryClient({ apiKey: API_KEY, fetch })).toThrow(/No base URL: pass \{ baseUrl \}/);
      } finally {
        vi.unstubAllGlobals();
      }
    },
  );

  it("keep a path prefix of the base URL", async () => {
    const { fetch, seen } = fakeFetch(json(sampleMetadata));
    await createFileLibraryClient({ baseUrl: `${BASE_URL}/gateway/`, apiKey: API_KEY, fetch }).files.get("f");
    expect(seen[0]!.url).toBe(`${BASE_URL}/gateway/studio/v1/library/files/f`);
  });

  it.each([
    [{ apiKey: API_KEY }, /No base URL.*FILE_LIBRARY_BASE_URL/],
    [{ baseUrl: BASE_URL }, /No API key.*FILE_LIBRARY_API_KEY/],
    [{ baseUrl: BASE_URL, apiKey: "  " }, /No API key/],
    [
      { baseUrl: "files.example.test", apiKey: API_KEY },
      /"files\.example\.test" has no scheme: did you mean https:\/\/files\.example\.test\?/,
    ],
    [{ baseUrl: "ftp://files.example.test", apiKey: API_KEY }, /must use http or https/],
    [{ baseUrl: "https://u:p@files.example.test", apiKey: API_KEY }, /must not carry credentials/],
    [{ baseUrl: `${BASE_URL}?x=1`, apiKey: API_KEY }, /query or fragment/],
    [
      { baseUrl: BASE_URL, apiKey: "has space" },
      /a character a header cannot carry: check FILE_LIBRARY_API_KEY for a space/,
    ],
  ])("reject %j at creation with a clear error", (options, message) => {
    vi.stubEnv("FILE_LIBRARY_BASE_URL", "");
    vi.stubEnv("FILE_LIBRARY_API_KEY", "");
    expect(() => createFileLibraryClient(options)).toThrow(InvalidArgumentError);
    expect(() => createFileLibraryClient(options)).toThrow(message);
  });
});

describe("checkNumber: each numeric option's range, exactly", () => {
  it.each<[NumericOption, number]>([
    ["maxRetries", 0],
    ["maxRetries", 7],
    ["maxResponseBytes", 1],
    ["maxResponseBytes", 1_048_576],
    ["timeoutMs", 1],
    ["timeoutMs", 0.5],
    ["timeoutMs", 2 ** 31 - 1],
  ])("%s takes %d", (name, value) => {
    expect(checkNumber(name, value)).toBe(value);
  });

  it.each<[NumericOption, number, string]>([
    ["maxRetries", -1, "maxRetries must be a whole number of at least 0, got -1."],
    ["maxRetries", 1.5, "maxRetries must be a whole number of at least 0, got 1.5."],
    ["maxRetries", Number.NaN, "maxRetries must be a whole number of at least 0, got NaN."],
    ["maxResponseBytes", 0, "maxResponseBytes must be a whole number of at least 1, got 0."],
    ["maxResponseBytes", 2.5, "maxResponseBytes must be a whole number of at least 1, got 2.5."],
    ["timeoutMs", 0, "timeoutMs must be a number of milliseconds from 1 to 2147483647, got 0."],
    ["timeoutMs", -5, "timeoutMs must be a number of milliseconds from 1 to 2147483647, got -5."],
    ["timeoutMs", 2 ** 31, "timeoutMs must be a number of milliseconds from 1 to 2147483647, got 2147483648."],
    ["timeoutMs", Number.NaN, "timeoutMs must be a number of milliseconds from 1 to 2147483647, got NaN."],
  ])("%s refuses %d", (name, value, message) => {
    expect(() => checkNumber(name, value)).toThrow(new InvalidArgumentError(message));
  });

  it("is applied to each option at creation", () => {
    const base = { baseUrl: BASE_URL, apiKey: API_KEY };
    expect(() => createFileLibraryClient({ ...base, timeoutMs: 0 })).toThrow(/^timeoutMs must be/);
    expect(() => createFileLibraryClient({ ...base, maxResponseBytes: 0 })).toThrow(/^maxResponseBytes must be/);
    expect(() => createFileLibraryClient({ ...base, maxRetries: -1 })).toThrow(/^maxRetries must be/);
    expect(resolveOptions({ ...base })).toMatchObject({
      maxRetries: 2,
      timeoutMs: 60_000,
      maxResponseBytes: 1_048_576,
    });
  });
});

describe("logger", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is console unless one is given (docs/client.md, the options)", async () => {
    const debug = vi.spyOn(console, "debug").mockImplementation(() => {});
    const { fetch } = fakeFetch(json(sampleMetadata));
    await createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, logLevel: "debug" }).files.get("f");
    expect(debug).toHaveBeenCalledTimes(1);
    expect(debug.mock.calls[0]![0]).toMatch(
      /^file-library: getFile GET \/studio\/v1\/library\/files\/f: attempt 1\/3: HTTP 200 in \d+ ms$/,
    );
  });
});

describe("resolveOptions: what is missing or cannot be read", () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([undefined, "", "   "])("a base URL of %j is missing, saying what to set", (baseUrl) => {
    vi.stubEnv("FILE_LIBRARY_BASE_URL", "");
    expect(() => resolveOptions({ baseUrl, apiKey: API_KEY })).toThrow(
      new InvalidArgumentError(
        "No base URL: pass { baseUrl } or set FILE_LIBRARY_BASE_URL, such as https://files.example.com.",
      ),
    );
  });

  it.each([undefined, "", " \t"])("an API key of %j is missing, saying what to set", (apiKey) => {
    vi.stubEnv("FILE_LIBRARY_API_KEY", "");
    expect(() => resolveOptions({ baseUrl: BASE_URL, apiKey })).toThrow(
      new InvalidArgumentError("No API key: pass { apiKey } or set FILE_LIBRARY_API_KEY."),
    );
  });

  it("a runtime with no fetch, and none injected, is told to pass one", () => {
    vi.stubGlobal("fetch", undefined);
    expect(() => resolveOptions({ baseUrl: BASE_URL, apiKey: API_KEY })).toThrow(
      new InvalidArgumentError("This runtime has no global fetch: pass { fetch }."),
    );
    expect(resolveOptions({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: async () => new Response() }).fetch).toBeTypeOf(
      "function",
    );
  });

  it("no process, or an env that refuses to be read (Deno without --allow-env), counts as unset variables", () => {
    vi.stubGlobal("process", undefined);
    expect(() => resolveOptions({ apiKey: API_KEY })).toThrow(/^No base URL/);
    vi.stubGlobal("process", { env: undefined });
    expect(() => resolveOptions({ apiKey: API_KEY })).toThrow(/^No base URL/);
    const refusing = new Proxy(
      {},
      {
        get: () => {
          throw new Error("NotCapable");
        },
      },
    );
    vi.stubGlobal("process", { env: refusing });
    expect(() => resolveOptions({ apiKey: API_KEY })).toThrow(/^No base URL/);
    expect(resolveOptions({ baseUrl: BASE_URL, apiKey: API_KEY }).baseUrl).toBe(BASE_URL);
  });
});
