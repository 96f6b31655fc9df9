import { jsonBody, type Exchange } from "../http/exchange.ts";
import { updateTarget, withRestore } from "./file-state.ts";
import { MODIFICATION_DATES } from "./modification-dates.ts";
import { scenarioCheck, type Scenario } from "./types.ts";

/** The fields an update may change: the two the service description names, and a date of the last change. */
const MAY_CHANGE = new Set(["labels", "publicUrl", ...MODIFICATION_DATES]);

/** The file's metadata as the run found it, before its first write: every write of the run is held to it. */
export interface FileBaseline {
  /** undefined when the file could not be read before the first write: no write is then judged against it. */
  metadata: Record<string, unknown> | undefined;
}

/** A write left a field that no update may touch other than the baseline has it. */
export interface Drift {
  problem: string;
  /** The read that showed it. */
  exchange: Exchange;
}

/** The fields of `after` that no update may touch and that differ from `before`, in words; empty when none does. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (field) => !MAY_CHANGE.has(field),
  );
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => `${field} from ${JSON.stringify(before[field])} to ${JSON.stringify(after[field])}`);
}

/** Reads the file before the run's first write: the baseline every later write is held to. */
export async function takeBaseline(s: Scenario): Promise<FileBaseline> {
  const ex = await s.send({ operationId: "getFile", fileId: s.target.fileId });
  const body = ex.status === 200 && ex.invalidUtf8 === undefined ? jsonBody(ex) : undefined;
  return {
    metadata:
      body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined,
  };
}

/**
 * After a write the server accepted (`write`, any check's), reads the file and compares every field no update may
 * touch with the baseline; resolves with the drift, if any. Every write of the run is judged so, whichever check made
 * it and in whatever order the checks run: a server that breaks the file on every update fails the same way always.
 */
export async function driftAfter(s: Scenario, baseline: FileBaseline, write: Exchange): Promise<Drift | undefined> {
  if (!baseline.metadata || write.status < 200 || write.status >= 300) return undefined;
  const read = await s.send({ operationId: "getFile", fileId: s.target.fileId });
  if (read.status !== 200 || read.invalidUtf8 !== undefined) return undefined;
  const after = jsonBody(read);
  if (after === null || typeof after !== "object" || Array.isArray(after)) return undefined;
  const changed = changedFields(baseline.metadata, after as Record<string, unknown>);
  if (changed.length === 0) return undefined;
  const sent =
    write.request.body === undefined
      ? ""
      : ` of ${write.request.body.length > 120 ? `${write.request.body.slice(0, 120)}…` : write.request.body}`;
  return {
    problem: `an update${sent} (HTTP ${write.status}) left ${changed.join(", ")}, against the file as the run found it before its first write`,
    exchange: read,
  };
}

/**
 * update_changes_only_its_fields: every write of the run leaves every field but labels, publicUrl and a date of the
 * last change (MODIFICATION_DATES) as the file had it before the run's first write. This check makes one update of both; the runner judges it, and every other write.
 */
export const updateChangesOnlyItsFields = scenarioCheck(
  "update_changes_only_its_fields",
  "After every update of the run, whichever check sent it, every field of the metadata but labels, publicUrl and a date of the last change (lastUpdated, updatedAt, updated_at...) is as it was before the run's first write: id, name, size, created_at and any other (the update supports only those two: decisions.md, D01; the date: decisions.md, D12).",
  {
    operations: ["updateFile"],
    requires: ["state", "writes"],
    async run(s) {
      await withRestore(s, async (before) => {
        const body = {
          labels: [...before.labels, "contract-check-only-labels"],
          ...(before.publicUrl === undefined ? {} : { publicUrl: `${before.publicUrl}#contract-check` }),
        };
        // The runner reads the file back after it, as after every write, and compares it with the baseline.
        await updateTarget(s, body, "the update");
      });
    },
  },
);
