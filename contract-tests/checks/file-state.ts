import type { UpdateFileRequest } from "../../src/client.ts";
import { jsonBody } from "../http/exchange.ts";
import type { Scenario } from "./types.ts";

/** What the write checks read and put back: the updatable fields (UpdateFileRequest), labels always known. */
export type FileState = UpdateFileRequest & { labels: string[] };

/** The target file's whole metadata through getFile, with its labels a list; fails the scenario if it cannot. */
export async function readMetadata(s: Scenario): Promise<Record<string, unknown> & { labels: string[] }> {
  const ex = await s.send({ operationId: "getFile", fileId: s.target.fileId });
  // Its text has U+FFFD where the bytes were not UTF-8: any value read from it would be the suite's guess.
  if (ex.invalidUtf8 !== undefined) s.skip("the metadata is not UTF-8, so what it holds cannot be read back (json_well_formed fails it)");
  const body = jsonBody(ex) as Record<string, unknown> | undefined;
  if (ex.status !== 200 || !body || !Array.isArray(body.labels)) s.fail(`could not read the file back (getFile answered ${ex.status})`, ex);
  return body as Record<string, unknown> & { labels: string[] };
}

/** Reads the target file's labels and publicUrl through getFile; fails the scenario if it cannot. */
export async function readFileState(s: Scenario): Promise<FileState> {
  return stateOf(await readMetadata(s));
}

/** Updates the target file with `body`; fails the scenario, naming the update as `what`, unless the answer is 200. */
export async function updateTarget(s: Scenario, body: Record<string, unknown>, what: string): Promise<void> {
  const ex = await s.send({ fileId: s.target.fileId, json: body });
  if (ex.status !== 200) s.fail(`${what} got HTTP ${ex.status}, expected 200`, ex);
}

/** The updatable fields of a file's metadata. */
export const stateOf = (metadata: Record<string, unknown> & { labels: string[] }): FileState => ({
  labels: metadata.labels,
  ...(typeof metadata.publicUrl === "string" ? { publicUrl: metadata.publicUrl } : {}),
});

/**
 * Puts labels (and publicUrl, when the file had one) back as they were; warns when the server refuses. The request
 * is essential: sent past the request budget and the run's wait cap, so that a run that stops still leaves the file
 * as it found it (docs/decisions.md, Live runs read, unless told to write).
 */
export async function restoreFileState(s: Scenario, before: FileState): Promise<void> {
  const ex = await s.send({ operationId: "updateFile", fileId: s.target.fileId, json: before, essential: true });
  if (ex.status !== 200) s.warn(`could not put file ${s.target.fileId} back (HTTP ${ex.status}); its labels were ${JSON.stringify(before.labels)}`);
}

/** Runs `work` with the file's whole metadata before it, and always restores the file's state afterwards. */
export async function withRestore(s: Scenario, work: (before: FileState, metadata: Record<string, unknown>) => Promise<void>): Promise<void> {
  const metadata = await readMetadata(s);
  const before = stateOf(metadata);
  try {
    await work(before, metadata);
  } finally {
    await restoreFileState(s, before);
  }
}
