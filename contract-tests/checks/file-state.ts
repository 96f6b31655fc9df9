import type { UpdateFileRequest } from "../../src/client.ts";
import { jsonBody } from "../http/exchange.ts";
import type { Scenario } from "./types.ts";

/** What the write checks read and put back: the updatable fields (UpdateFileRequest), labels always known. */
export type FileState = UpdateFileRequest & { labels: string[] };

/** The target file's whole metadata through getFile, with its labels a list; fails the scenario if it cannot. */
export async function readMetadata(
  s: Scenario,
  { freshConnection = false } = {},
): Promise<Record<string, unknown> & { labels: string[] }> {
  const ex = await s.send({
    operationId: "getFile",
    fileId: s.target.fileId,
    ...(freshConnection ? { freshConnection } : {}),
  });
  // Its text has U+FFFD where the bytes were not UTF-8: any value read from it would be the suite's guess.
  if (ex.invalidUtf8 !== undefined)
    s.skip("the metadata is not UTF-8, so what it holds cannot be read back (json_well_formed fails it)");
  const body = jsonBody(ex) as Record<string, unknown> | undefined;
  if (ex.status !== 200 || !body || !Array.isArray(body.labels))
    s.fail(`could not read the file back (getFile answered ${ex.status})`, ex);
  return body as Record<string, unknown> & { labels: string[] };
}

/** Reads the target file's labels and publicUrl through getFile (on a new connection, if asked); fails the scenario if it cannot. */
export async function readFileState(s: Scenario, how: { freshConnection?: boolean } = {}): Promise<FileState> {
  return stateOf(await readMetadata(s, how));
}

/** Updates the target file with `body`; fails the scenario, naming the update as `what`, unless the answer is 200. */
export async function updateTarget(s: Scenario, body: Record<string, unknown>, what: string): Promise<void> {
  const ex = await s.send({ fileId: s.target.fileId, json: body });
  if (ex.status !== 200) s.fail(`${what} got HTTP ${ex.status}, expected 200`, ex);
}

/** The updatable fields of a file's metadata, as it shows them. */
export const stateOf = (metadata: Record<string, unknown> & { labels: string[] }): FileState => ({
  labels: metadata.labels,
  ...(typeof metadata.publicUrl === "string" ? { publicUrl: metadata.publicUrl } : {}),
});

/**
 * The updatable fields of a file's metadata that the run can put back: each only when an update may send it as the
 * metadata shows it (UpdateFileRequest). A publicUrl shown as `null` cannot be put back (`null` in an update is "not
 * given"): a run never changes what it cannot restore (docs/decisions.md, D20).
 */
export function restorableState(
  s: Pick<Scenario, "spec">,
  metadata: Record<string, unknown> & { labels: string[] },
): FileState {
  const { publicUrl, ...state } = stateOf(metadata);
  const takes =
    publicUrl !== undefined && s.spec.validateRequestBody("updateFile", "application/json", { publicUrl }).valid;
  return takes ? { ...state, publicUrl } : state;
}

/**
 * Puts labels (and publicUrl, when the run may have changed it) back as they were. A server that refuses the two
 * together gets each on its own, so that one field's refusal never drops the other's restore; the run says so. The
 * requests are essential: sent past the request budget and the run's wait cap, so that a run that stops still leaves
 * the file as it found it. Resolves with the fields the server would not take back (file_left_as_found then fails).
 */
export async function restoreFileState(s: Scenario, before: Partial<FileState>): Promise<string[]> {
  const put = (json: Partial<FileState>) =>
    s.send({ operationId: "updateFile", fileId: s.target.fileId, json, essential: true });
  const together = await put(before);
  if (together.status === 200) return [];
  const fields = Object.keys(before) as Array<keyof FileState>;
  const refused: string[] = [];
  if (fields.length > 1) {
    for (const field of fields) {
      const alone = await put({ [field]: before[field] });
      if (alone.status !== 200) refused.push(`${field} (HTTP ${alone.status})`);
    }
  } else refused.push(`${fields[0]} (HTTP ${together.status})`);
  s.warn(
    `putting file ${s.target.fileId} back: the server refused ${JSON.stringify(before)} (HTTP ${together.status})` +
      (fields.length > 1
        ? `, so each field was sent on its own; ${refused.length === 0 ? "each was taken" : `refused: ${refused.join(", ")}`}`
        : ""),
  );
  return refused;
}

/** Runs `work` with the file's whole metadata before it, and always restores the file's state afterwards. */
export async function withRestore(
  s: Scenario,
  work: (before: FileState, metadata: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  const metadata = await readMetadata(s);
  const before = restorableState(s, metadata);
  try {
    await work(before, metadata);
  } finally {
    await restoreFileState(s, before);
  }
}
