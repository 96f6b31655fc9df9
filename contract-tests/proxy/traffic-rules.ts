import { changedFields } from "../checks/update-changes-only-its-fields.ts";
import { persistedProblem } from "../checks/update-persisted.ts";

/** An update of a file as the proxy saw it: from its request's arrival to its answer's end (undefined: in flight). */
interface UpdateSeen {
  startedAt: number;
  endedAt: number | undefined;
  /** true: the server accepted it (2xx); false: refused it; undefined: its outcome is unknown (no answer). */
  accepted: boolean | undefined;
  /** What the request sent, as JSON (undefined when it was not JSON); only an object's labels and publicUrl are read. */
  sent: unknown;
}

/** A read of a file: when, whether the file existed (200) or not (422), and its metadata (getFile 200). */
interface ReadSeen {
  operation: string;
  startedAt: number;
  endedAt: number;
  exists: boolean;
  metadata: Record<string, unknown> | undefined;
}

/** What one file's traffic has shown so far. */
interface FileTraffic {
  updates: UpdateSeen[];
  lastRead: ReadSeen | undefined;
  lastMetadata: ReadSeen | undefined;
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

  /** The update's answer ended: accepted or not, or unknown when no answer came (`status` undefined). */
  updateEnded(update: UpdateSeen, endedAt: number, status: number | undefined, sent: unknown): void {
    update.endedAt = endedAt;
    // Stryker disable next-line ConditionalExpression: equivalent; an unknown outcome and a refusal are alike "not accepted" to every rule, and both count as "came between"
    update.accepted = status === undefined ? undefined : status >= 200 && status < 300;
    update.sent = sent;
  }

  /** Judges a read of the file (200, or 422 for an unknown id) against the traffic before it, then remembers it. */
  read(fileId: string, read: ReadSeen): TrafficFinding[] {
    const file = this.file(fileId);
    const findings: TrafficFinding[] = [];
    const updatesWithin = (from: number, to: number, except?: UpdateSeen) =>
      file.updates.some((u) => u !== except && u.startedAt < to && (u.endedAt ?? Number.POSITIVE_INFINITY) > from);

    const previous = file.lastRead;
    if (previous && previous.endedAt < read.startedAt && previous.exists !== read.exists && !updatesWithin(previous.startedAt, read.endedAt)) {
      const was = (r: ReadSeen) => (r.exists ? "200 (the file exists)" : "422 (no such file)");
      findings.push({
        operation: read.operation,
        check: "file_existence_consistent",
        problem: `${JSON.stringify(fileId)} answered ${was(previous)} to ${previous.operation}, then ${was(read)} to ${read.operation}, with no update of it between`,
      });
    }

    if (read.metadata) {
      const before = file.lastMetadata;
      if (before?.metadata && before.endedAt < read.startedAt) {
        const changed = changedFields(before.metadata, read.metadata);
        if (changed.length > 0) {
          findings.push({ operation: read.operation, check: "update_changes_only_its_fields", problem: `between two reads of ${JSON.stringify(fileId)}: ${changed.join(", ")}` });
        }
      }
      // The latest update accepted before this read began: the read must show it, unless another came between.
      const accepted = file.updates.filter((u) => u.accepted === true && u.endedAt! < read.startedAt).at(-1);
      const sent = accepted?.sent;
      if (typeof sent === "object" && sent !== null && !updatesWithin(accepted!.startedAt, read.endedAt, accepted)) {
        const problem = persistedProblem(sent, read.metadata);
        if (problem) findings.push({ operation: "updateFile", check: "update_persisted", problem: `${problem} (file ${JSON.stringify(fileId)}, no other update between)` });
      }
      if (!before || before.endedAt <= read.endedAt) file.lastMetadata = read;
    }
    if (!previous || previous.endedAt <= read.endedAt) file.lastRead = read;
    return findings;
  }
}
