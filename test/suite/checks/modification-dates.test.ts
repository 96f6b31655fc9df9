import { describe, expect, it } from "vitest";
import { MODIFICATION_DATES } from "../../../contract-tests/checks/modification-dates.ts";

describe("MODIFICATION_DATES: the members an update may move", () => {
  it("are the service's lastUpdated and the usual names of a last-change date, in camelCase and snake_case", () => {
    for (const name of [
      "lastUpdated",
      "lastUpdatedAt",
      "last_updated",
      "updatedAt",
      "updated_at",
      "lastModified",
      "last_modified",
      "modifiedAt",
      "modified_at",
    ]) {
      expect(MODIFICATION_DATES.has(name), name).toBe(true);
    }
  });

  it("hold no member that names the file, its content or its creation", () => {
    for (const name of [
      "id",
      "fileId",
      "name",
      "size",
      "sizeBytes",
      "created_at",
      "creationDate",
      "createdAt",
      "status",
      "labels",
      "publicUrl",
      "updated",
    ]) {
      expect(MODIFICATION_DATES.has(name), name).toBe(false);
    }
  });
});
