import { readMetadata, updateTarget, withRestore } from "./file-state.ts";
import { scenarioCheck } from "./types.ts";

/** The fields an update may change: the service description names no other. */
const UPDATABLE = new Set(["labels", "publicUrl"]);

/**
 * update_changes_only_its_fields: after an update, the whole metadata equals the metadata before it, but for labels
 * and publicUrl (the only attributes the update supports).
 */
export const updateChangesOnlyItsFields = scenarioCheck(
  "update_changes_only_its_fields",
  "After an update, every field of the metadata but labels and publicUrl is as before it: id, name, size, created_at and any other (the update supports only those two: decisions.md, What the service description fixes).",
  {
    operations: ["updateFile"],
    requires: ["state", "writes"],
    async run(s) {
      await withRestore(s, async (before, metadata) => {
        const body = { labels: [...before.labels, "contract-check-only-labels"], ...(before.publicUrl === undefined ? {} : { publicUrl: `${before.publicUrl}#contract-check` }) };
        await updateTarget(s, body, "the update");
        const after = await readMetadata(s);
        const fields = [...new Set([...Object.keys(metadata), ...Object.keys(after)])].filter((field) => !UPDATABLE.has(field));
        const changed = fields.filter((field) => JSON.stringify(metadata[field]) !== JSON.stringify(after[field]));
        if (changed.length > 0) {
          const shown = changed.map((field) => `${field} from ${JSON.stringify(metadata[field])} to ${JSON.stringify(after[field])}`);
          s.fail(`an update of ${Object.keys(body).join(" and ")} also changed ${shown.join(", ")}`);
        }
      });
    },
  },
);
