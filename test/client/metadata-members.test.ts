// covers: src/metadata-members.ts, src/response-body.ts, src/client.ts, src/errors.ts
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  createFileLibraryClient,
  FileLibraryError,
  MalformedResponseError,
  MetadataShapeError,
  type components,
  type FileMetadata,
} from "../../src/index.ts";
import { missingMembers, OPTIONAL_MEMBERS, REQUIRED_MEMBERS, SHOWN_MEMBERS } from "../../src/metadata-members.ts";
import { documentShapedServer, type DocumentShapedServer } from "../support/document-shaped-server.ts";
import { API_KEY, BASE_URL, fakeFetch, json, sampleMetadata } from "../support/fake-fetch.ts";

type Schema = components["schemas"]["FileMetadata"];
/** The keys of T that are required, and those that are optional. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type OptionalKeys<T> = Exclude<keyof T, RequiredKeys<T>>;

// The spec's own document-shaped metadata, exactly as test/support/document-shaped-server.ts serves it.
let server: DocumentShapedServer;
beforeAll(async () => {
  server = await documentShapedServer();
});
afterAll(() => server.close());

const DOCUMENT_SHAPED_MESSAGE =
  "getFile got HTTP 200 but the answer has fileId, fileType, sizeBytes, createdBy, creationDate, … and not id, size, created_at: the server breaks the File Library contract.";

const getWith = (body: unknown) =>
  createFileLibraryClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: fakeFetch(json(body)).fetch, maxRetries: 0 })
    .files.get("file_1")
    .then(
      (): Error => new Error("no error: it resolved"),
      (error: unknown) => error as Error,
    );

describe("the lists are the spec's (checked by tsc: a list that drifts from the generated types fails the build)", () => {
  it("REQUIRED_MEMBERS is exactly FileMetadata's required members, OPTIONAL_MEMBERS exactly its others", () => {
    expectTypeOf<(typeof REQUIRED_MEMBERS)[number]>().toEqualTypeOf<RequiredKeys<Schema>>();
    expectTypeOf<(typeof OPTIONAL_MEMBERS)[number]>().toEqualTypeOf<OptionalKeys<Schema>>();
    // What the spec requires today, so that the run shows the list too (tsc is the guard above).
    expect(REQUIRED_MEMBERS).toEqual(["id", "name", "size", "created_at", "labels"]);
  });
});

describe("missingMembers", () => {
  it("is undefined for metadata with every required member, whatever else it has, nulls included", () => {
    expect(missingMembers(sampleMetadata)).toBeUndefined();
    expect(
      missingMembers({ ...sampleMetadata, publicUrl: null, errorCode: null, errorMessage: null, checksum: "x" }),
    ).toBeUndefined();
  });

  it("names the missing members and those the answer has that the spec does not name, at most SHOWN_MEMBERS, then …", () => {
    expect(missingMembers(server.file)).toEqual({
      ok: false,
      missing: ["id", "size", "created_at"],
      problem: "the answer has fileId, fileType, sizeBytes, createdBy, creationDate, … and not id, size, created_at",
    });
    const exactly = Object.fromEntries(Array.from({ length: SHOWN_MEMBERS }, (_, i) => [`m${i}`, i]));
    expect(missingMembers(exactly)?.problem).toBe(
      "the answer has m0, m1, m2, m3, m4 and not id, name, size, created_at, labels",
    );
  });

  it("with no member the spec does not name, names the members it has; with none, says so", () => {
    expect(missingMembers({ name: "a.txt", labels: [], publicUrl: null })?.problem).toBe(
      "the answer has name, labels, publicUrl and not id, size, created_at",
    );
    expect(missingMembers({})?.problem).toBe("the answer has no members and not id, name, size, created_at, labels");
  });

  it("shows names on one line, escaped and bounded, and never a value", () => {
    const { problem } = missingMembers({ "a\nb\u0000": "secret-value-1", ["x".repeat(500)]: "secret-value-2" })!;
    expect(problem).toMatch(/^the answer has a b\\u0000, x{190,}… and not id, name, size, created_at, labels$/);
    expect(problem).not.toContain("secret-value");
  });
});

describe("getFile with metadata that lacks required members", () => {
  it("throws a MetadataShapeError (a MalformedResponseError) naming the members, with status 200 and no value", async () => {
    const error = (await getWith(server.file)) as MetadataShapeError;
    expect(error).toBeInstanceOf(MetadataShapeError);
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error).toBeInstanceOf(FileLibraryError);
    expect(error.name).toBe("MetadataShapeError");
    expect(error.message).toBe(DOCUMENT_SHAPED_MESSAGE);
    expect(error).toMatchObject({
      operation: "getFile",
      status: 200,
      missing: ["id", "size", "created_at"],
      bodyExcerpt: "",
    });
    const shown = [error.message, JSON.stringify(error), String(error.stack)].join("\n");
    for (const value of [server.fileId, "notes.txt", "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "PROCESSED", "2026-03-04"])
      expect(shown).not.toContain(value);
  });

  it("throws the same from the document-shaped server itself, over HTTP", async () => {
    const client = createFileLibraryClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, maxRetries: 0 });
    const error = await client.files.get(server.fileId).then(
      (): unknown => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MetadataShapeError);
    expect((error as MetadataShapeError).message).toBe(DOCUMENT_SHAPED_MESSAGE);
  });

  it("redacts the API key where the answer names a member after it", async () => {
    const error = await getWith({ [`key ${API_KEY}`]: 1 });
    expect(error.message).toBe(
      "getFile got HTTP 200 but the answer has key [REDACTED] and not id, name, size, created_at, labels: the server breaks the File Library contract.",
    );
  });

  it("is not thrown for a body of another kind, which keeps its own message and excerpt", async () => {
    const error = (await getWith([sampleMetadata])) as MalformedResponseError;
    expect(error).not.toBeInstanceOf(MetadataShapeError);
    expect(error.bodyExcerpt).toContain("report.pdf");
  });
});

describe("getFile with the description's metadata", () => {
  it("resolves with it when the optional members are null, as both official SDKs type them", async () => {
    const body = { ...sampleMetadata, publicUrl: null, errorCode: null, errorMessage: null };
    const metadata: FileMetadata = await createFileLibraryClient({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      fetch: fakeFetch(json(body)).fetch,
    }).files.get("file_1");
    expect(metadata).toEqual(body);
  });
});
