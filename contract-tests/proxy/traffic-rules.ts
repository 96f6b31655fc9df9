import { createHash } from "node:crypto";
import { MODIFICATION_DATES } from "../checks/modification-dates.ts";
import { fileIdKey } from "../checks/same-file-id.ts";
import { fingerprint } from "./fingerprint.ts";

/** An update of a file as the proxy saw it: from its request's arrival to its answer's end (undefined: in flight). */
interface UpdateSeen {
  startedAt: number;
  endedAt: number | undefined;
  /** true: the server accepted it (2xx); false: refused it; undefined: its outcome is unknown (no answer). */
  accepted: boolean | undefined;
  /**
   * The prints (fingerprint.ts) of the labels and publicUrl an accepted update sent as a JSON object; undefined for a
   * refused update, one whose outcome is unknown, or a body that was no object: only what a read is compared with.
   */
  sent: SentPrints | undefined;
}

/** The prints of what an accepted update sent: labels (as sent, and sorted with and without duplicates) and publicUrl. */
interface SentPrints {
  labels?: string;
  /** Digests of the labels sorted, and sorted with duplicates collapsed: a read showing either is the same set, reordered. */
  labelsSorted?: string;
  labelsUnique?: string;
  publicUrl?: string;
}

/** A read of a file: when, whether the file existed (200) or not (422), and its metadata (getFile 200). */
interface ReadSeen {
  operation: string;
  startedAt: number;
  endedAt: number;
  exists: boolean;
  metadata: Record<string, unknown> | undefined;
}

/** A read as the rules remember it: its span and outcome, and the prints of the fields no update may change. */
interface ReadKept {
  /** The file id as this read spelt it. */
  id: string;
  operation: string;
  startedAt: number;
  endedAt: number;
  exists: boolean;
  /** Field name to print (fingerprint.ts), for at most FIELDS_KEPT fields; undefined for a read without metadata. */
  fields: Map<string, string> | undefined;
}

/** What one file's traffic has shown so far: spans and prints, never a body. */
interface FileTraffic {
  updates: UpdateSeen[];
  lastRead: ReadKept | undefined;
  lastMetadata: ReadKept | undefined;
}

/** A rule across exchanges that the traffic broke (or, with `warning`, only bent: the proxy warns). */
export interface TrafficFinding {
  operation: string;
  check: "update_persisted" | "file_existence_consistent" | "update_changes_only_its_fields";
  problem: string;
  /** Set on a warning: labels read back in another order, or with duplicates collapsed (docs/decisions.md, D24). */
  warning?: true;
}

// Enough to judge any read against the updates around it; older ones can no longer overlap anything judged.
const UPDATES_KEPT = 32;
const FILES_KEPT = 10_000;
// Fields of a read compared with the next one; a server that sends more has the rest compared as one print.
const FIELDS_KEPT = 32;
const OTHER_FIELDS = "(the other fields)";
// The fields an update may change (decisions.md, D01), and a modification date under
// the service's own name (its document's lastUpdated) or a usual one: an update naturally moves it
// (docs/decisions.md, D24).
const MAY_CHANGE: ReadonlySet<string> = new Set(["labels", "publicUrl", ...MODIFICATION_DATES]);

/**
 * Labels sorted, and sorted with duplicates collapsed, each as a digest of its print (only compared, never shown: 16
 * characters); undefined when they are not a list of strings.
 */
function labelSetPrints(labels: unknown): { sorted: string; unique: string } | undefined {
  if (!Array.isArray(labels) || !labels.every((label) => typeof label === "string")) return undefined;
  const sorted = [...(labels as string[])].sort();
  const digest = (list: string[]) => createHash("sha256").update(fingerprint(list)).digest("hex").slice(0, 16);
  return { sorted: digest(sorted), unique: digest([...new Set(sorted)]) };
}

/** The prints of the fields no update may change, FIELDS_KEPT at most: what the next read is compared with. */
function fieldPrints(metadata: Record<string, unknown>): Map<string, string> {
  const names = Object.keys(metadata).filter((name) => !MAY_CHANGE.has(name));
  const prints = new Map(names.slice(0, FIELDS_KEPT).map((name) => [name, fingerprint(metadata[name])]));
  if (names.length > FIELDS_KEPT)
    prints.set(OTHER_FIELDS, fingerprint(names.slice(FIELDS_KEPT).map((name) => [name, metadata[name]])));
  return prints;
}

/** The fields that differ between two reads' prints, in words ("size from 1 to \"1\""); empty when none does. */
function changedPrints(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((field) => before.get(field) !== after.get(field))
    .map((field) => `${field} from ${before.get(field) ?? "undefined"} to ${after.get(field) ?? "undefined"}`);
}

/**
 * Whether a read shows what an accepted update sent: labels exactly, publicUrl where the metadata shows it. The same
 * labels in another order, or with duplicates collapsed, is a `reordered` problem (a warning), any other change a failure.
 */
function persistedProblem(
  sent: SentPrints,
  read: Record<string, unknown>,
): { problem: string; reordered?: true } | undefined {
  const labels = sent.labels === undefined ? undefined : fingerprint(read.labels);
  let reordered: { problem: string; reordered: true } | undefined;
  if (labels !== sent.labels) {
    const problem = `after sending labels ${sent.labels}, getFile shows ${labels}`;
    const shown = labelSetPrints(read.labels);
    // Sorted, the read equals the sent labels sorted, or them with duplicates collapsed (then it has none itself).
    const sameSet = shown !== undefined && (shown.sorted === sent.labelsSorted || shown.sorted === sent.labelsUnique);
    if (!sameSet) return { problem };
    reordered = {
      problem: `${problem}: the same labels, in another order or with duplicates collapsed`,
      reordered: true,
    };
  }
  const publicUrl =
    sent.publicUrl === undefined || read.publicUrl === undefined ? undefined : fingerprint(read.publicUrl);
  if (publicUrl !== undefined && publicUrl !== sent.publicUrl)
    return { problem: `after sending publicUrl ${sent.publicUrl}, getFile shows ${publicUrl}` };
  return reordered;
}

/**
 * The rules that only a sequence of exchanges shows, over the traffic of one run
 * (docs/decisions.md, D24): an accepted update shows in the reads after it, a file does not come
 * and go, and no field but labels, publicUrl and a modification date changes between reads. A file id that is a UUID
 * is one file in any letter case. Exchanges are intervals, from the request's
 * arrival at the proxy to the end of its answer; an update "came between" two exchanges when its interval overlaps the
 * span from the first's start to the second's end, and one whose outcome is unknown always counts: concurrent traffic
 * gets no false alarm.
 */
export class TrafficRules {
  private readonly files = new Map<string, FileTraffic>();

  private file(fileId: string): FileTraffic {
    // The same UUID in any letter case is one file (RFC 9562).
    const key = fileIdKey(fileId);
    let found = this.files.get(key);
    if (!found) {
      if (this.files.size >= FILES_KEPT) this.files.delete(this.files.keys().next().value!);
      // Stryker disable next-line ArrayDeclaration: equivalent; an item that is no update matches no rule, and is the first shifted out
      this.files.set(key, (found = { updates: [], lastRead: undefined, lastMetadata: undefined }));
    }
    return found;
  }

  /** An update of the file arrived: it is in flight until `updateEnded`. Returns the handle to end it with. */
  updateStarted(fileId: string, startedAt: number): UpdateSeen {
    const updates = this.file(fileId).updates;
    const update: UpdateSeen = { startedAt, endedAt: undefined, accepted: undefined, sent: undefined };
    updates.push(update);
    // One comes at a time: one goes.
    if (updates.length > UPDATES_KEPT) updates.shift();
    return update;
  }

  /**
   * The update's answer ended: accepted or not, or unknown when no answer came (`status` undefined). Only an accepted
   * update's labels and publicUrl are kept, as prints; a refused one keeps its span alone. A field sent as `null` is
   * one not sent: the field keeps its value (docs/decisions.md, D05), so no read is expected to show null.
   */
  updateEnded(update: UpdateSeen, endedAt: number, status: number | undefined, sent: unknown): void {
    update.endedAt = endedAt;
    // Stryker disable next-line ConditionalExpression: equivalent; an unknown outcome and a refusal are alike "not accepted" to every rule, and both count as "came between"
    update.accepted = status === undefined ? undefined : status >= 200 && status < 300;
    if (update.accepted !== true || typeof sent !== "object" || sent === null || Array.isArray(sent)) return;
    const { labels, publicUrl } = sent as { labels?: unknown; publicUrl?: unknown };
    // Undefined for a null or absent list, as for any that is not a list of strings.
    const set = labelSetPrints(labels);
    update.sent = {
      ...(labels === undefined || labels === null ? {} : { labels: fingerprint(labels) }),
      ...(set ? { labelsSorted: set.sorted, labelsUnique: set.unique } : {}),
      ...(publicUrl === undefined || publicUrl === null ? {} : { publicUrl: fingerprint(publicUrl) }),
    };
  }

  /** Judges a read of the file (200, or 422 for an unknown id) against the traffic before it, then remembers it. */
  read(fileId: string, read: ReadSeen): TrafficFinding[] {
    const file = this.file(fileId);
    const findings: TrafficFinding[] = [];
    const updatesWithin = (from: number, to: number, except?: UpdateSeen) =>
      file.updates.some((u) => u !== except && u.startedAt < to && (u.endedAt ?? Number.POSITIVE_INFINITY) > from);

    const kept: ReadKept = {
      id: fileId,
      operation: read.operation,
      startedAt: read.startedAt,
      endedAt: read.endedAt,
      exists: read.exists,
      fields: read.metadata && fieldPrints(read.metadata),
    };
    const previous = file.lastRead;
    // Existence is compared between reads of one spelling only: a UUID in another letter case may be served or
    // refused with 422, and both are correct (docs/decisions.md, D04).
    const sameSpelling = previous?.id === fileId;
    if (
      previous &&
      sameSpelling &&
      previous.endedAt < read.startedAt &&
      previous.exists !== read.exists &&
      !updatesWithin(previous.startedAt, read.endedAt)
    ) {
      const was = (r: ReadKept | ReadSeen) => (r.exists ? "200 (the file exists)" : "422 (no such file)");
      findings.push({
        operation: read.operation,
        check: "file_existence_consistent",
        problem: `${JSON.stringify(fileId)} answered ${was(previous)} to ${previous.operation}, then ${was(read)} to ${read.operation}, with no update of it between`,
      });
    }

    if (read.metadata) {
      const before = file.lastMetadata;
      if (before?.fields && before.endedAt < read.startedAt) {
        const changed = changedPrints(before.fields, kept.fields!);
        if (changed.length > 0) {
          findings.push({
            operation: read.operation,
            check: "update_changes_only_its_fields",
            problem: `between two reads of ${JSON.stringify(fileId)}: ${changed.join(", ")}`,
          });
        }
      }
      // The latest update accepted before this read began: the read must show it, unless another came between.
      const accepted = file.updates.filter((u) => u.accepted === true && u.endedAt! < read.startedAt).at(-1);
      const sent = accepted?.sent;
      if (sent !== undefined && !updatesWithin(accepted!.startedAt, read.endedAt, accepted)) {
        const persisted = persistedProblem(sent, read.metadata);
        if (persisted) {
          const problem = `${persisted.problem} (file ${JSON.stringify(fileId)}, no other update between)`;
          findings.push({
            operation: "updateFile",
            check: "update_persisted",
            problem,
            ...(persisted.reordered ? { warning: true as const } : {}),
          });
        }
      }
      if (!before || before.endedAt <= read.endedAt) file.lastMetadata = kept;
    }
    if (!previous || previous.endedAt <= read.endedAt) file.lastRead = kept;
    return findings;
  }
}
