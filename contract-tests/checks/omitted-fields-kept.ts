import { readFileState, updateTarget, withRestore } from "./file-state.ts";
import { scenarioCheck } from "./types.ts";

/** omitted_fields_kept: an update that omits labels keeps them. */
export const omittedFieldsKept = scenarioCheck("omitted_fields_kept", "An update that omits labels keeps them, and one that omits publicUrl keeps it (decisions.md, The update).", {
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
        s.fail(`an update of ${JSON.stringify(json)} changed the file from ${JSON.stringify(expected)} to ${JSON.stringify(after)}`);
      }
    });
  },
});
