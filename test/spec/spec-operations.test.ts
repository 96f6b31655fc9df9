import { describe, expect, it } from "vitest";
import { SpecOperations, type OpenApiDocument } from "../../lib/openapi/spec-operations.ts";

const document: OpenApiDocument = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  paths: {
    "/files/{id}": {
      parameters: [],
      put: { operationId: "updateFile", responses: { "200": {}, "4XX": {} } },
      get: { operationId: "getFile", responses: { "200": {}, "422": {}, default: {} } },
      post: { responses: { "200": {} } },
    },
    "/files/{id}/download": { get: { operationId: "getFileDownloadUrl", responses: { "200": {}, "5xx": {} } } },
  },
};

describe("SpecOperations", () => {
  const spec = new SpecOperations(document);

  it("lists the operations with an operationId, path by path in the methods' order (get before put)", () => {
    expect(spec.operationIds()).toEqual(["getFile", "updateFile", "getFileDownloadUrl"]);
  });

  it("gives an operation's method, path and documented statuses, and throws for an operationId the spec has not", () => {
    expect(spec.operation("updateFile")).toEqual({
      operationId: "updateFile",
      method: "PUT",
      path: "/files/{id}",
      statuses: ["200", "4XX"],
    });
    expect(() => spec.operation("deleteFile")).toThrow('The spec has no operation "deleteFile".');
  });

  it.each([
    ["getFile", 200, "200"],
    ["getFile", 422, "422"],
    ["getFile", 404, "default"],
    ["updateFile", 404, "4XX"],
    ["updateFile", 500, undefined],
    ["getFileDownloadUrl", 503, "5xx"],
    ["getFileDownloadUrl", 401, undefined],
  ])(
    "%s answering %i is documented by %s (the exact status, then its range, then default)",
    (operation, status, key) => {
      expect(spec.documentedStatus(operation, status)).toBe(key);
    },
  );
});
