import { jsonBody, type Exchange } from "../http/exchange.ts";
import { sameFileId } from "./same-file-id.ts";
import { scenarioCheck } from "./types.ts";

/** What is wrong with a getFile answer for `fileId`, if anything: it must be 200, with the metadata of that file (a UUID in any case). */
export function metadataIdProblem(ex: Exchange, fileId: string): string | undefined {
  if (ex.status !== 200) return `getFile got HTTP ${ex.status}, expected 200`;
  const id = (jsonBody(ex) as { id?: unknown } | undefined)?.id;
  return typeof id === "string" && sameFileId(id, fileId)
    ? undefined
    : `the metadata's id is ${JSON.stringify(id)}, not the requested ${JSON.stringify(fileId)}`;
}

/** metadata_of_requested_file: the metadata's id is the id that was asked for. */
export const metadataOfRequestedFile = scenarioCheck(
  "metadata_of_requested_file",
  "The metadata answered for a file id has that id.",
  {
    operations: ["getFile"],
    requires: ["state"],
    async run(s) {
      const ex = await s.send({ fileId: s.target.fileId });
      const problem = metadataIdProblem(ex, s.target.fileId);
      if (problem) s.fail(problem, ex);
    },
  },
);
