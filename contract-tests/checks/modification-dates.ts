/**
 * The metadata members that name when the file was last changed: an update may move them, as it moves the service's
 * own `lastUpdated` ("When the file data or metadata was last changed", its OpenAPI document's FileResponse). Every
 * other member no update may touch (docs/decisions.md, D12). The one list of them: the suite's
 * update_changes_only_its_fields and the proxy's rules across exchanges read it here.
 */
export const MODIFICATION_DATES: ReadonlySet<string> = new Set([
  // The service's own name.
  "lastUpdated",
  // The usual names of the same date, in the spellings frameworks and ORMs give it.
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
]);
