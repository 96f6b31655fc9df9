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

  it("are exactly the listed spellings: each one is allowed to change, and a near look-alike of it is not", () => {
    const names = [
      "lastUpdated",
      "lastUpdatedAt",
      "last_updated",
      "last_updated_at",
      "updatedAt",
      "updated_at",
      "updatedOn",
      "updated_on",
      "lastModified",
      "last_modified",
      "lastModifiedAt",
      "last_modified_at",
      "modifiedAt",
      "modified_at",
      "modifiedOn",
      "modified_on",
      "dateModified",
      "date_modified",
      "modificationDate",
      "modification_date",
      "updateTime",
      "update_time",
    ];
    for (const name of names) {
      expect(MODIFICATION_DATES.has(name), name).toBe(true);
      expect(MODIFICATION_DATES.has(`${name}X`), `${name}X`).toBe(false);
      expect(MODIFICATION_DATES.has(name.toUpperCase()), name.toUpperCase()).toBe(false);
    }
    expect(MODIFICATION_DATES.has(""), "the empty name").toBe(false);
    expect(MODIFICATION_DATES.size).toBe(names.length);
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
