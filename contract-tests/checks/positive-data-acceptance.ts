import { validUpdateBodies } from "../inputs/generators.ts";
import { withRestore } from "./file-state.ts";
import { scenarioCheck } from "./types.ts";

/** positive_data_acceptance: valid requests get a 2xx; for updates, generated valid bodies (write checks only). */
export const positiveDataAcceptance = scenarioCheck("positive_data_acceptance", "Valid requests get 200: reads of the file, and generated valid update bodies (write checks only; the file is put back).", {
  operations: ["getFile", "updateFile", "getFileDownloadUrl"],
  // Valid updates change the file: sent only with write checks (the runner skips the update otherwise, and says why).
  requiresOn: { updateFile: ["writes"] },
  async run(s) {
    if (s.operationId !== "updateFile") {
      const accepts = s.operationId === "getFileDownloadUrl" ? ["text/plain", "application/json"] : [undefined];
      for (const accept of accepts) {
        const ex = await s.send({ fileId: s.target.fileId, ...(accept ? { accept } : {}) });
        if (ex.status !== 200) s.fail(`a valid request${accept ? ` (Accept: ${accept})` : ""} got HTTP ${ex.status}, expected 200`, ex);
      }
      return;
    }
    await withRestore(s, async (before) => {
      // Only fields this run can put back: publicUrl only when the file has one to restore. What the server keeps of
      // them is update_persisted's to judge (it reads back values generated the same way).
      await s.forAll(validUpdateBodies(s.spec, { withPublicUrl: before.publicUrl !== undefined }), async (json) => {
        const ex = await s.send({ fileId: s.target.fileId, json });
        if (ex.status !== 200) s.fail(`a valid update body got HTTP ${ex.status}, expected 200`, ex);
      });
    });
  },
});
