import { describe, expect, it } from "vitest";
import { createFileLibraryClient, InvalidArgumentError, FileLibraryError } from "../../src/index.ts";
import { assertFileId } from "../../src/file-id.ts";
import { API_KEY, BASE_URL, fakeFetch, json, sampleMetadata, text } from "../support/fake-fetch.ts";

const setup = () => {
  const fake = fakeFetch(json(sampleMetadata));
  return { ...fake, client: createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: fake.fetch }) };
};

describe("file id encoding", () => {
  it.each([
    ["a/b", "a%2Fb"],
    ["a?b#c", "a%3Fb%23c"],
    ["100%", "100%25"],
    ["with space", "with%20space"],
    ["ünï/çødé", "%C3%BCn%C3%AF%2F%C3%A7%C3%B8d%C3%A9"],
    ["..a", "..a"],
    ["a/../b", "a%2F..%2Fb"],
    ["%2e%2e", "%252e%252e"],
  ])("sends %j as the single path segment %s", async (id, encoded) => {
    const { client, seen } = setup();
    await client.files.get(id);
    const url = new URL(seen[0]!.url);
    expect(url.pathname).toBe(`/studio/v1/library/files/${encoded}`);
    expect(decodeURIComponent(url.pathname.split("/").at(-1)!)).toBe(id);
  });

  it("encodes the id of the download path too", async () => {
    const fake = fakeFetch(text("https://files.example.test/x"));
    const client = createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: fake.fetch });
    await client.files.downloadUrl("a/b");
    expect(new URL(fake.seen[0]!.url).pathname).toBe("/studio/v1/library/files/a%2Fb/download");
  });
});

describe("file ids rejected before any request", () => {
  it.each(["", " ", "\t\n", ".", ".."])("rejects %j on every method", async (id) => {
    const { client, seen } = setup();
    for (const call of [
      () => client.files.get(id),
      () => client.files.update(id, {}),
      () => client.files.downloadUrl(id),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error).toBeInstanceOf(FileLibraryError);
      expect((error as Error).message).toMatch(/file id/);
    }
    expect(seen).toHaveLength(0);
  });

  it("rejects a non-string id from untyped callers", async () => {
    const { client, seen } = setup();
    await expect(client.files.get(42 as unknown as string)).rejects.toThrow(/must be a string, got number/);
    expect(seen).toHaveLength(0);
  });
});

describe("update bodies rejected before any request", () => {
  it.each([
    [null, /needs an object/],
    [["a"], /needs an object/],
    [{ label: ["typo"] }, /unknown field\(s\) "label"/],
    [{ labels: [], public_url: "x" }, /unknown field\(s\) "public_url"/],
  ])("rejects %j", async (body, message) => {
    const { client, seen } = setup();
    await expect(client.files.update("file_1", body as never)).rejects.toThrow(message);
    expect(seen).toHaveLength(0);
  });
});

describe("what a rejected id or body says, exactly", () => {
  it.each<[unknown, string]>([
    [null, "The file id must be a string, got null."],
    [42, "The file id must be a string, got number."],
    [undefined, "The file id must be a string, got undefined."],
    ["  ", 'The file id "  " cannot be sent: a URL reads it as the collection or a relative path.'],
    ["..", 'The file id ".." cannot be sent: a URL reads it as the collection or a relative path.'],
  ])("%j", (id, message) => {
    expect(() => assertFileId(id)).toThrow(new InvalidArgumentError(message));
  });

  it("an update body that is not an object, or has fields the service does not take", async () => {
    const { client } = setup();
    const id = `file_${"x".repeat(70)}`;
    const shown = JSON.stringify(`${id.slice(0, 60)}…`);
    await expect(client.files.update(id, "labels" as never)).rejects.toThrow(
      new InvalidArgumentError(`The update of file ${shown} needs an object such as { labels: ["a"] }.`),
    );
    await expect(client.files.update(id, undefined as never)).rejects.toThrow(/needs an object/);
    await expect(client.files.update("f", { a: 1, b: 2, labels: [] } as never)).rejects.toThrow(
      new InvalidArgumentError(
        'The update of file "f" has unknown field(s) "a", "b": only publicUrl and labels can be changed.',
      ),
    );
  });
});
