import { readFileState, withRestore } from "./file-state.ts";
import { scenarioCheck } from "./types.ts";

/** omitted_fields_kept: an update that omits labels keeps them. */
export const omittedFieldsKept = scenarioCheck("omitted_fields_kept", "An update that omits labels keeps them, and one that omits publicUrl keeps it (decisions.md, The update).", {
  operations: ["updateFile"],
  requires: ["state", "writes"],
  async run(s) {
    await withRestore(s, async (before) => {
      // Labels to keep, so that clearing them would show.
      const known = ["contract-keep-1", "contract-keep-2"];
      const set = await s.send({ fileId: s.target.fileId, json: { labels: known } });
      if (set.status !== 200) s.fail(`setting labels got HTTP ${set.status}, expected 200`, set);
      const expected = await readFileState(s);
      // Send the publicUrl it already has, or nothing: either way labels are omitted.
      const json = before.publicUrl === undefined ? {} : { publicUrl: before.publicUrl };
      const omit = await s.send({ fileId: s.target.fileId, json });
      if (omit.status !== 200) s.fail(`an update omitting labels got HTTP ${omit.status}, expected 200`, omit);
      const after = await readFileState(s);
      if (JSON.stringify(after) !== JSON.stringify(expected)) {
        s.fail(`an update of ${JSON.stringify(json)} changed the file from ${JSON.stringify(expected)} to ${JSON.stringify(after)}`);
      }
    });
  },
});
