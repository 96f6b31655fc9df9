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
  sent: { labels?: string; publicUrl?: string } | undefined;
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

/** A rule across exchanges that the traffic broke. */
export interface TrafficFinding {
  operation: string;
  check: "update_persisted" | "file_existence_consistent" | "update_changes_only_its_fields";
  problem: string;
}

// Enough to judge any read against the updates around it; older ones can no longer overlap anything judged.
const UPDATES_KEPT = 32;
const FILES_KEPT = 10_000;
// Fields of a read compared with the next one; a server that sends more has the rest compared as one print.
const FIELDS_KEPT = 32;
const OTHER_FIELDS = "(the other fields)";
// The fields an update may change (decisions.md, What the service description fixes).
const UPDATABLE = new Set(["labels", "publicUrl"]);

/** The prints of the fields no update may change, FIELDS_KEPT at most: what the next read is compared with. */
function fieldPrints(metadata: Record<string, unknown>): Map<string, string> {
  const names = Object.keys(metadata).filter((name) => !UPDATABLE.has(name));
  const prints = new Map(names.slice(0, FIELDS_KEPT).map((name) => [name, fingerprint(metadata[name])]));
  if (names.length > FIELDS_KEPT) prints.set(OTHER_FIELDS, fingerprint(names.slice(FIELDS_KEPT).map((name) => [name, metadata[name]])));
  return prints;
}

/** The fields that differ between two reads' prints, in words ("size from 1 to \"1\""); empty when none does. */
function changedPrints(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((field) => before.get(field) !== after.get(field))
    .map((field) => `${field} from ${before.get(field) ?? "undefined"} to ${after.get(field) ?? "undefined"}`);
}

/** Whether a read shows what an accepted update sent: labels exactly, publicUrl where the metadata shows it. */
function persistedProblem(sent: { labels?: string; publicUrl?: string }, read: Record<string, unknown>): string | undefined {
  const labels = sent.labels === undefined ? undefined : fingerprint(read.labels);
  if (labels !== sent.labels) return `after sending labels ${sent.labels}, getFile shows ${labels}`;
  const publicUrl = sent.publicUrl === undefined || read.publicUrl === undefined ? undefined : fingerprint(read.publicUrl);
  if (publicUrl !== undefined && publicUrl !== sent.publicUrl) return `after sending publicUrl ${sent.publicUrl}, getFile shows ${publicUrl}`;
  return undefined;
}

/**
 * The rules that only a sequence of exchanges shows, over the traffic of one run
 * (docs/decisions.md, Checking real traffic): an accepted update shows in the reads after it, a file does not come
 * and go, and no field but labels and publicUrl changes between reads. Exchanges are intervals, from the request's
 * arrival at the proxy to the end of its answer; an update "came between" two exchanges when its interval overlaps the
 * span from the first's start to the second's end, and one whose outcome is unknown always counts: concurrent traffic
 * gets no false alarm.
 */
export class TrafficRules {
  private readonly files = new Map<string, FileTraffic>();

  private file(fileId: string): FileTraffic {
    let found = this.files.get(fileId);
    if (!found) {
      if (this.files.size >= FILES_KEPT) this.files.delete(this.files.keys().next().value!);
      // Stryker disable next-line ArrayDeclaration: equivalent; an item that is no update matches no rule, and is the first shifted out
      this.files.set(fileId, (found = { updates: [], lastRead: undefined, lastMetadata: undefined }));
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
   * update's labels and publicUrl are kept, as prints; a refused one keeps its span alone.
   */
  updateEnded(update: UpdateSeen, endedAt: number, status: number | undefined, sent: unknown): void {
    update.endedAt = endedAt;
    // Stryker disable next-line ConditionalExpression: equivalent; an unknown outcome and a refusal are alike "not accepted" to every rule, and both count as "came between"
    update.accepted = status === undefined ? undefined : status >= 200 && status < 300;
    if (update.accepted !== true || typeof sent !== "object" || sent === null || Array.isArray(sent)) return;
    const { labels, publicUrl } = sent as { labels?: unknown; publicUrl?: unknown };
    update.sent = { ...(labels === undefined ? {} : { labels: fingerprint(labels) }), ...(publicUrl === undefined ? {} : { publicUrl: fingerprint(publicUrl) }) };
  }

  /** Judges a read of the file (200, or 422 for an unknown id) against the traffic before it, then remembers it. */
  read(fileId: string, read: ReadSeen): TrafficFinding[] {
    const file = this.file(fileId);
    const findings: TrafficFinding[] = [];
    const updatesWithin = (from: number, to: number, except?: UpdateSeen) =>
      file.updates.some((u) => u !== except && u.startedAt < to && (u.endedAt ?? Number.POSITIVE_INFINITY) > from);

    const kept: ReadKept = { operation: read.operation, startedAt: read.startedAt, endedAt: read.endedAt, exists: read.exists, fields: read.metadata && fieldPrints(read.metadata) };
    const previous = file.lastRead;
    if (previous && previous.endedAt < read.startedAt && previous.exists !== read.exists && !updatesWithin(previous.startedAt, read.endedAt)) {
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
          findings.push({ operation: read.operation, check: "update_changes_only_its_fields", problem: `between two reads of ${JSON.stringify(fileId)}: ${changed.join(", ")}` });
        }
      }
      // The latest update accepted before this read began: the read must show it, unless another came between.
      const accepted = file.updates.filter((u) => u.accepted === true && u.endedAt! < read.startedAt).at(-1);
      const sent = accepted?.sent;
      if (sent !== undefined && !updatesWithin(accepted!.startedAt, read.endedAt, accepted)) {
        const problem = persistedProblem(sent, read.metadata);
        if (problem) findings.push({ operation: "updateFile", check: "update_persisted", problem: `${problem} (file ${JSON.stringify(fileId)}, no other update between)` });
      }
      if (!before || before.endedAt <= read.endedAt) file.lastMetadata = kept;
    }
    if (!previous || previous.endedAt <= read.endedAt) file.lastRead = kept;
    return findings;
  }
}
