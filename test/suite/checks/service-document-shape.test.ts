import { describe, expect, it } from "vitest";
import { serviceDocumentShape } from "../../../contract-tests/checks/service-document-shape.ts";

// The metadata as the service's own OpenAPI document (FileResponse) has it.
const documentShaped = {
  fileId: "3b1f6c9e-2d4a-4f5b-9c8d-7e6f5a4b3c2d",
  name: "notes.txt",
  fileType: "txt",
  sizeBytes: 12,
  createdBy: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  creationDate: "2026-03-04",
  lastUpdated: "2026-03-05",
  status: "PROCESSED",
  labels: ["a"],
  publicUrl: null,
};

describe("serviceDocumentShape", () => {
  it("names every renamed member, document name first", () => {
    expect(serviceDocumentShape(documentShaped)).toBe(
      "this server answers the field names of the service's own OpenAPI document: fileId → id, sizeBytes → size, creationDate → created_at; " +
        "the contract is the service description's (docs/decisions.md, D12)",
    );
  });

  it("names only the members that are renamed, not those the answer also has under the description's name", () => {
    const line = serviceDocumentShape({ ...documentShaped, id: "x", size: 1 });
    expect(line).toContain("document: creationDate → created_at;");
    expect(line).not.toContain("fileId");
  });

  it("names a date where the description has a timestamp", () => {
    expect(serviceDocumentShape({ id: "a", name: "n", size: 1, created_at: "2026-03-04", labels: [] })).toBe(
      'this server answers a date for created_at ("2026-03-04"), where the description has a UTC timestamp; ' +
        "the contract is the service description's (docs/decisions.md, D12)",
    );
  });

  it("joins a renamed member and a date-only created_at in one line", () => {
    const line = serviceDocumentShape({ fileId: "a", name: "n", size: 1, created_at: "2026-03-04", labels: [] });
    expect(line).toBe(
      "this server answers the field names of the service's own OpenAPI document: fileId → id; and " +
        'a date for created_at ("2026-03-04"), where the description has a UTC timestamp; ' +
        "the contract is the service description's (docs/decisions.md, D12)",
    );
  });

  it("takes only a whole string of a calendar date for a date: not one inside a longer string, nor an array of one", () => {
    for (const createdAt of ["x2026-03-04", "12026-03-04", ["2026-03-04"]])
      expect(serviceDocumentShape({ id: "a", name: "n", size: 1, created_at: createdAt, labels: [] })).toBeUndefined();
  });

  it("says nothing of the description's shape, or of what is not an object", () => {
    expect(
      serviceDocumentShape({ id: "a", name: "n", size: 1, created_at: "2026-03-04T05:06:07Z", labels: [] }),
    ).toBeUndefined();
    for (const value of [undefined, null, "fileId", [documentShaped], 5])
      expect(serviceDocumentShape(value)).toBeUndefined();
  });
});
