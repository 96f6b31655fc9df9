import { curlFor } from "../http/curl.ts";
import { readMetadata, restorableState, restoreFileState, type FileState } from "./file-state.ts";
import { scenarioCheck, type Scenario } from "./types.ts";

/** The updatable fields whose value now is not the one the run found, in words: `publicUrl is "…" (was "…")`. */
function leftChanged(found: FileState, now: Record<string, unknown>): string[] {
  return (Object.keys(found) as Array<keyof FileState>)
    .filter((field) => JSON.stringify(now[field]) !== JSON.stringify(found[field]))
    .map((field) => `${field} is ${shown(now[field])} (was ${shown(found[field])})`);
}

const shown = (value: unknown) =>
  value === undefined
    ? "absent"
    : JSON.stringify(value).length > 160
      ? `${JSON.stringify(value).slice(0, 160)}…`
      : JSON.stringify(value);

/** A curl command that puts the fields back, the key from $FILE_LIBRARY_API_KEY. */
function restoreCommand(s: Scenario, found: FileState): string {
  const path = s.spec.operation("updateFile").path.replace("{file_id}", encodeURIComponent(s.target.fileId));
  return curlFor({
    auth: "valid",
    method: "PUT",
    path,
    url: `${s.target.baseUrl}${path}`,
    headers: {
      // Stryker disable next-line StringLiteral: equivalent; curlFor writes a valid key's header as $FILE_LIBRARY_API_KEY, never this value.
      authorization: "Bearer [REDACTED]",
      "content-type": "application/json",
    },
    body: JSON.stringify(found),
  });
}

/**
 * file_left_as_found: after every write check, the file reads as the run found it. Each check puts back what it
 * changed; this reads the file once more and compares labels and publicUrl with the baseline, so that a restore the
 * server took but did not keep (it dropped publicUrl when labels came along, say) fails the run instead of leaving the
 * file changed without a word.
 */
export const fileLeftAsFound = scenarioCheck(
  "file_left_as_found",
  "After the write checks, the file reads as the run found it before its first write: its labels and publicUrl as they were (every check puts back what it changed; this proves the server kept it). A field left changed fails, with its original value and a curl command that puts it back.",
  {
    operations: ["updateFile"],
    requires: ["state", "writes"],
    last: true,
    async run(s) {
      const baseline = await s.baseline();
      // No write reached the file (or it could not be read before the first): there is nothing to have put back.
      if (!baseline?.metadata || !Array.isArray(baseline.metadata.labels)) return;
      const found = restorableState(s, baseline.metadata as Record<string, unknown> & { labels: string[] });
      const now = await readMetadata(s);
      const left = leftChanged(found, now);
      if (left.length === 0) return;
      // The restores were taken and not kept: once more, each field on its own, so that the run leaves the file as it
      // found it where the server lets it.
      for (const field of Object.keys(found) as Array<keyof FileState>) {
        if (JSON.stringify(now[field]) !== JSON.stringify(found[field]))
          await restoreFileState(s, { [field]: found[field] });
      }
      const still = leftChanged(found, await readMetadata(s));
      const outcome =
        still.length === 0 ? "the suite has now put it back, field by field" : `still left: ${still.join("; ")}`;
      s.fail(
        `the write checks left file ${JSON.stringify(s.target.fileId)} changed although each put it back: ${left.join("; ")}; ${outcome}. To put it back: ${restoreCommand(s, found)}`,
      );
    },
  },
);
