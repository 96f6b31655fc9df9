import { jsonBody } from "../support/exchange.ts";
import { scenarioCheck } from "./types.ts";

/** metadata_of_requested_file: the metadata's id is the id that was asked for. */
export const metadataOfRequestedFile = scenarioCheck("metadata_of_requested_file", "The metadata answered for a file id has that id.", {
  operations: ["getFile"],
  requires: ["state"],
  async run(s) {
    const ex = await s.send({ fileId: s.target.fileId });
    if (ex.status !== 200) s.fail(`getFile got HTTP ${ex.status}, expected 200`, ex);
    const id = (jsonBody(ex) as { id?: unknown } | undefined)?.id;
    if (id !== s.target.fileId) s.fail(`the metadata's id is ${JSON.stringify(id)}, not the requested ${JSON.stringify(s.target.fileId)}`, ex);
  },
});
