// covers: src/redact.ts, src/send.ts, src/options.ts
import { describe, expect, it } from "vitest";
import { createFileLibraryClient, FileLibraryError, InvalidArgumentError } from "../../src/index.ts";
import { closedPort } from "../support/closed-port.ts";
import { API_KEY, BASE_URL, fakeFetch, json, text } from "../support/fake-fetch.ts";

/** Every way an error can be shown: message, String(), stack, JSON, and what the cause says. */
function everythingShown(error: unknown): string {
  const e = error as Error;
  return [e.message, String(e), e.stack, JSON.stringify(e), String((e.cause as Error | undefined)?.message)].join("\n");
}

const echoingServer = (status: number) =>
  json({ message: `bad key Bearer ${API_KEY}`, detail: [{ loc: [API_KEY], msg: API_KEY, type: "x" }] }, status, {
    "www-authenticate": `Bearer error="invalid_token" token="${API_KEY}"`,
  });

describe("the API key never leaks", () => {
  it.each([401, 422, 500])("not from an error answer (%i) whose body and headers echo it", async (status) => {
    const { fetch } = fakeFetch(echoingServer(status));
    const client = createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, maxRetries: 0 });
    const error = await client.files.get("file_1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileLibraryError);
    const shown = everythingShown(error);
    expect(shown).toContain("[REDACTED]");
    expect(shown).not.toContain(API_KEY);
  });

  it("not from a malformed 2xx body that echoes it", async () => {
    const { fetch } = fakeFetch(text(`token=${API_KEY}`));
    const client = createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, maxRetries: 0 });
    const error = await client.files.downloadUrl("file_1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileLibraryError);
    expect(everythingShown(error)).not.toContain(API_KEY);
  });

  it("not from a connection failure", async () => {
    const client = createFileLibraryClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      apiKey: API_KEY,
      maxRetries: 0,
    });
    const error = await client.files.get("file_1").catch((e: unknown) => e);
    expect(everythingShown(error)).not.toContain(API_KEY);
  });

  it("not from a key that cannot be sent in a header", () => {
    const badKey = `${API_KEY}\n`;
    let error: unknown;
    try {
      createFileLibraryClient({ baseUrl: BASE_URL, apiKey: badKey });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(everythingShown(error)).not.toContain(API_KEY);
  });
});

describe("the API key given as a file id (a slip of the caller's) leaks neither from an error nor from the log", () => {
  it.each([
    ["as it is", API_KEY],
    ["with characters a path escapes", `${API_KEY}+/=`],
  ])("%s", async (_, key) => {
    const lines: string[] = [];
    const log = {
      debug: (line: string) => void lines.push(line),
      info: (line: string) => void lines.push(line),
      warn: (line: string) => void lines.push(line),
      error: (line: string) => void lines.push(line),
    };
    const { fetch } = fakeFetch(json({ message: "no such file" }, 422), json({ message: "no such file" }, 422));
    const client = createFileLibraryClient({
      baseUrl: BASE_URL,
      apiKey: key,
      fetch,
      maxRetries: 0,
      logger: log,
      logLevel: "debug",
    });
    const error = await client.files.get(key).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileLibraryError);
    const shown = [everythingShown(error), ...lines].join("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const spelling of [key, encodeURIComponent(key)]) expect(shown).not.toContain(spelling);
    expect(shown).toContain("[REDACTED]");
  });
});
