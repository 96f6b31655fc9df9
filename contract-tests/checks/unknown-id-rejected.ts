import { randomUUID } from "node:crypto";
import { showFileId } from "../../src/file-id.ts";
import { awkwardUnknownIds, LONG_UNKNOWN_ID } from "../inputs/generators.ts";
import { nearIds } from "../inputs/near-ids.ts";
import { scenarioCheck, type Scenario } from "./types.ts";

const bodyFor = (s: Scenario) => (s.operationId === "updateFile" ? { json: { labels: ["contract-check"] } } : {});

/** unknown_id_rejected: an id the server does not have gets 422, and no awkward id gets a 2xx or a 5xx. */
export const unknownIdRejected = scenarioCheck(
  "unknown_id_rejected",
  "An unknown file id gets 422, not 404 (the service's rule), and so does each id near the real one (in the other case, unless it is a UUID, which RFC 9562 compares without regard to case: then serving it passes too; with a space around it, a percent escape, an accent, a full-width character); ids with /, .., %, ?, #, spaces, non-ASCII or 1000 characters get a 4xx, never 2xx or 5xx (decisions.md, D04).",
  {
    operations: ["getFile", "updateFile", "getFileDownloadUrl"],
    requires: ["state"],
    async run(s) {
      // Updates of unknown ids are sent in read-only runs too: a correct server changes nothing.
      const plain = await s.send({ fileId: `contract-unknown-${randomUUID()}`, ...bodyFor(s) });
      if (plain.status !== 422) s.fail(`an unknown id got HTTP ${plain.status}, expected 422`, plain);
      const rejected = async (fileId: string) => {
        const ex = await s.send({ fileId, ...bodyFor(s) });
        if (ex.status < 400 || ex.status >= 500)
          s.fail(`the unknown id ${showFileId(fileId)} got HTTP ${ex.status}, expected a 4xx`, ex);
      };
      await rejected(LONG_UNKNOWN_ID);
      await s.forAll(awkwardUnknownIds(), rejected);
      // Ids near the real one, on the read alone: a lenient lookup is the same for every operation, and a read-only run
      // has 100 requests to keep room in for a gateway's 429s.
      if (s.operationId !== "getFile") return;
      for (const near of nearIds(s.target.fileId)) {
        s.record(`ids near the real one: ${near.kind}`);
        const ex = await s.send({ fileId: near.id });
        // Any 4xx refuses it, as for the awkward ids: a router may answer 404 first (status_code_conformance reports that).
        if (ex.status >= 400 && ex.status < 500) continue;
        // The same UUID in another case is the same id: serving it is as right as refusing it.
        // Stryker disable next-line ConditionalExpression: equivalent; no final answer has a status under 200 (1xx are interim)
        if (near.sameId && ex.status >= 200 && ex.status < 300) continue;
        const found = ex.status >= 200 && ex.status < 300 ? " as if it were the real file" : "";
        const expected = near.sameId ? "expected 200 or 422" : "expected 422 (no file has it)";
        s.fail(
          `the id ${showFileId(near.id)}, the real one ${near.kind}, got HTTP ${ex.status}${found}, ${expected}`,
          ex,
        );
      }
    },
  },
);
