// covers: src/index.ts, src/client.ts
import { describe, expectTypeOf, it } from "vitest";
import {
  createFileLibraryClient,
  UPDATABLE_FIELDS,
  type FileMetadata,
  type UpdateFileRequest,
} from "../../src/index.ts";
import { API_KEY, BASE_URL, fakeFetch, json, sampleMetadata } from "../support/fake-fetch.ts";

// These assertions are checked by `tsc` (npm run typecheck): a wrong type fails the build, not the run.
describe("types", () => {
  const client = createFileLibraryClient({
    baseUrl: BASE_URL,
    apiKey: API_KEY,
    fetch: fakeFetch(json(sampleMetadata)).fetch,
  });

  it("methods resolve to the spec's types", () => {
    expectTypeOf(client.files.get).returns.resolves.toEqualTypeOf<FileMetadata>();
    expectTypeOf(client.files.update).returns.resolves.toEqualTypeOf<void>();
    expectTypeOf(client.files.downloadUrl).returns.resolves.toEqualTypeOf<string>();
    expectTypeOf<FileMetadata["size"]>().toEqualTypeOf<number>();
    expectTypeOf<FileMetadata["labels"]>().toEqualTypeOf<string[]>();
  });

  it("UPDATABLE_FIELDS lists exactly the fields of the spec's UpdateFileRequest", () => {
    expectTypeOf<(typeof UPDATABLE_FIELDS)[number]>().toEqualTypeOf<keyof UpdateFileRequest>();
  });

  it("update bodies are checked against the spec", () => {
    const check = () => {
      // @ts-expect-error labels is an array of strings
      void client.files.update("f", { labels: "a,b" });
      // @ts-expect-error labels items are strings
      void client.files.update("f", { labels: [1] });
      // @ts-expect-error only publicUrl and labels can be updated
      void client.files.update("f", { name: "renamed.pdf" });
      // @ts-expect-error publicUrl is a string
      void client.files.update("f", { publicUrl: 3 });
      // @ts-expect-error the body is required
      void client.files.update("f");
      // @ts-expect-error the file id is a string
      void client.files.get(42);
      void client.files.update("f", {});
      void client.files.update("f", { labels: [] });
    };
    expectTypeOf(check).toBeFunction();
  });

  it("raw is typed by the spec's paths", () => {
    const check = () => {
      // @ts-expect-error the path does not exist in the spec
      void client.raw.GET("/studio/v1/library/files");
      // @ts-expect-error file_id is required
      void client.raw.GET("/studio/v1/library/files/{file_id}", { params: { path: {} } });
    };
    expectTypeOf(check).toBeFunction();
  });
});
