import { readFileState, updateTarget, withRestore, type FileState } from "./file-state.ts";
import { scenarioCheck, type Scenario } from "./types.ts";

/** The body that gives neither field: `null` is "not given", as the official SDKs send it (docs/decisions.md, D05). */
const NULLS = { labels: null, publicUrl: null };

/**
 * omitted_fields_kept: an update that omits labels keeps them; one that sends `null` for labels and publicUrl keeps
 * both (warned, not failed: the description does not say it; the service's SDKs send it).
 */
export const omittedFieldsKept = scenarioCheck(
  "omitted_fields_kept",
  'An update that omits labels keeps them, and one that omits publicUrl keeps it; one that sends null for both keeps both, or the run warns (null is "not given": decisions.md, D05).',
  {
    operations: ["updateFile"],
    requires: ["state", "writes"],
    async run(s) {
      await withRestore(s, async (before) => {
        // Labels to keep, so that clearing them would show.
        const known = ["contract-keep-1", "contract-keep-2"];
        await updateTarget(s, { labels: known }, "setting labels");
        const expected = await readFileState(s);
        // Send the publicUrl it already has, or nothing: either way labels are omitted.
        // Stryker disable next-line ConditionalExpression: equivalent; JSON drops an undefined member, so { publicUrl: undefined } sends and shows as {}
        const json = before.publicUrl === undefined ? {} : { publicUrl: before.publicUrl };
        await updateTarget(s, json, "an update omitting labels");
        const after = await readFileState(s);
        if (JSON.stringify(after) !== JSON.stringify(expected)) {
          s.fail(
            `an update of ${JSON.stringify(json)} changed the file from ${JSON.stringify(expected)} to ${JSON.stringify(after)}`,
          );
        }
        await nullsKept(s, expected);
      });
    },
  },
);

/**
 * Sends `null` for both fields and warns when the file then reads otherwise than `expected`. A refusal is not this
 * check's: positive_data_acceptance sends the same body and fails it.
 */
async function nullsKept(s: Scenario, expected: FileState): Promise<void> {
  const ex = await s.send({ fileId: s.target.fileId, json: NULLS });
  if (ex.status !== 200) return;
  const after = await readFileState(s);
  const changed = (["labels", "publicUrl"] as const).filter(
    (field) => JSON.stringify(after[field]) !== JSON.stringify(expected[field]),
  );
  if (changed.length === 0) return;
  const shown = (state: FileState) =>
    changed.map((field) => `${field} ${JSON.stringify(state[field]) ?? "absent"}`).join(", ");
  s.warn(
    `an update of ${JSON.stringify(NULLS)} (HTTP 200) changed ${shown(expected)} to ${shown(after)}: null is "not given", and the field keeps its value (docs/decisions.md, D05)`,
  );
}
