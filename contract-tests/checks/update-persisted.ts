import { readFileState, withRestore } from "./file-state.ts";
import { scenarioCheck } from "./types.ts";

/** update_persisted: an update is visible in the next read, with exactly the labels sent. */
export const updatePersisted = scenarioCheck("update_persisted", "An update is visible in the next getFile, with exactly the labels sent (labels replace the list: decisions.md, The update).", {
  operations: ["updateFile"],
  requires: ["state", "writes"],
  async run(s) {
    await withRestore(s, async (before) => {
      const sent = ["contract-check-b", "contract-check-a", ...before.labels.slice(0, 1)];
      const ex = await s.send({ fileId: s.target.fileId, json: { labels: sent } });
      if (ex.status !== 200) s.fail(`the update got HTTP ${ex.status}, expected 200`, ex);
      const after = await readFileState(s);
      if (JSON.stringify(after.labels) !== JSON.stringify(sent)) {
        s.fail(`after sending labels ${JSON.stringify(sent)}, getFile shows ${JSON.stringify(after.labels)}`);
      }
    });
  },
});
