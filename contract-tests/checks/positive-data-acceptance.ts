import { validUpdateBodies } from "../inputs/generators.ts";
import { sdkUpdateBodies } from "../inputs/sdk-update-bodies.ts";
import { withRestore } from "./file-state.ts";
import { scenarioCheck } from "./types.ts";

/**
 * positive_data_acceptance: valid requests get a 2xx; for updates (write checks only), the official SDKs' exact bodies
 * whatever the seed, then generated valid bodies.
 */
export const positiveDataAcceptance = scenarioCheck(
  "positive_data_acceptance",
  "Valid requests get 200: reads of the file; with write checks, the official SDKs' update bodies as they send them (fileId in the body, null for a field not given, the documented publicUrl www.example.com where the file has a publicUrl to put back: decisions.md, D05), then generated valid bodies (the file is put back).",
  {
    operations: ["getFile", "updateFile", "getFileDownloadUrl"],
    // Valid updates change the file: sent only with write checks (the runner skips the update otherwise, and says why).
    requiresOn: { updateFile: ["writes"] },
    async run(s) {
      if (s.operationId !== "updateFile") {
        const accepts = s.operationId === "getFileDownloadUrl" ? ["text/plain", "application/json"] : [undefined];
        for (const accept of accepts) {
          const ex = await s.send({ fileId: s.target.fileId, ...(accept ? { accept } : {}) });
          if (ex.status !== 200)
            s.fail(`a valid request${accept ? ` (Accept: ${accept})` : ""} got HTTP ${ex.status}, expected 200`, ex);
        }
        return;
      }
      await withRestore(s, async (before) => {
        // Sent whatever the seed: a server that refuses what the service's own clients send fails every run. A publicUrl
        // is set only when the file has one the run can put back; `null` for it changes nothing, so it is always sent.
        const labels = [...before.labels.slice(0, 1), "contract-check-sdk"];
        for (const { json, sender } of sdkUpdateBodies(
          s.target.fileId,
          labels,
          before.publicUrl === undefined ? undefined : `${before.publicUrl}#contract-check-sdk`,
        )) {
          s.record("update bodies of the official SDKs");
          const ex = await s.send({ fileId: s.target.fileId, json });
          if (ex.status !== 200)
            s.fail(`${sender} sends ${JSON.stringify(json)}; it got HTTP ${ex.status}, expected 200`, ex);
        }
        // Only fields this run can put back: publicUrl only when the file has one to restore. What the server keeps of
        // them is update_persisted's to judge (it reads back values generated the same way).
        await s.forAll(validUpdateBodies(s.spec, { withPublicUrl: before.publicUrl !== undefined }), async (json) => {
          const ex = await s.send({ fileId: s.target.fileId, json });
          if (ex.status !== 200) s.fail(`a valid update body got HTTP ${ex.status}, expected 200`, ex);
        });
      });
    },
  },
);
