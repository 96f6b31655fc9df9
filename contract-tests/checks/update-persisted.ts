import { labelClassesList, labelClassNames, LONG_URL_LENGTH, longPublicUrl } from "../inputs/label-classes.ts";
import { readFileState, updateTarget, withRestore } from "./file-state.ts";
import { scenarioCheck } from "./types.ts";

/**
 * Whether a read shows an update: the labels exactly as sent (when sent), and the publicUrl as sent (when sent, and
 * where the metadata carries one); resolves with what differs, in words.
 */
export function persistedProblem(sent: { labels?: unknown; publicUrl?: unknown }, read: Record<string, unknown>): string | undefined {
  if (sent.labels !== undefined && JSON.stringify(read.labels) !== JSON.stringify(sent.labels)) {
    return `after sending labels ${JSON.stringify(sent.labels).slice(0, 200)}, getFile shows ${JSON.stringify(read.labels)?.slice(0, 200)}`;
  }
  if (sent.publicUrl !== undefined && read.publicUrl !== undefined && read.publicUrl !== sent.publicUrl) {
    return `after sending publicUrl ${JSON.stringify(sent.publicUrl).slice(0, 120)}, getFile shows ${JSON.stringify(read.publicUrl).slice(0, 120)}`;
  }
  return undefined;
}

/**
 * update_persisted: an update is visible in the next read: labels exactly as sent (every class of value a server
 * might normalize), `[]` clearing them, and publicUrl where the metadata shows it.
 */
export const updatePersisted = scenarioCheck(
  "update_persisted",
  "An update is visible in the next getFile: exactly the labels sent (duplicates, whitespace, both Unicode forms, the empty string, long labels, long lists, non-Latin text, commas: each kept as sent), labels: [] clears them, and a publicUrl of 2,048 characters reads back where the metadata shows it (labels replace the list: decisions.md, The update).",
  {
    operations: ["updateFile"],
    requires: ["state", "writes"],
    async run(s) {
      await withRestore(s, async (before) => {
        const update = async (body: Record<string, unknown>) => {
          await updateTarget(s, body, `the update ${JSON.stringify(body).slice(0, 200)}`);
          return readFileState(s);
        };

        const ordered = ["contract-check-b", "contract-check-a", ...before.labels.slice(0, 1)];
        const orderedProblem = persistedProblem({ labels: ordered }, await update({ labels: ordered }));
        if (orderedProblem) s.fail(orderedProblem);

        const classes = labelClassesList();
        // The report's SENT line names each class, so that a reader sees what the run tried.
        for (const name of labelClassNames()) s.record(`labels: ${name}`);
        const afterClasses = await update({ labels: classes });
        if (JSON.stringify(afterClasses.labels) !== JSON.stringify(classes)) {
          const changed = classes.filter((label, i) => afterClasses.labels[i] !== label).slice(0, 5);
          s.fail(
            `labels did not come back exactly as sent: ${classes.length} sent, ${afterClasses.labels.length} read back; the first that differ: ${changed.map((l) => JSON.stringify(l.slice(0, 40))).join(", ")}`,
          );
        }

        const cleared = await update({ labels: [] });
        if (cleared.labels.length !== 0) s.fail(`after sending labels: [], getFile shows ${JSON.stringify(cleared.labels)}: [] must clear the list`);

        // publicUrl is read back where the server's metadata carries it (it is optional in FileMetadata).
        // It is as long as real signed URLs get, past the lengths of common column types (the spec sets none).
        if (before.publicUrl !== undefined) {
          const url = longPublicUrl(s.target.fileId);
          s.record(`publicUrl: ${LONG_URL_LENGTH.toLocaleString("en-US")} characters`);
          const afterUrl = await update({ publicUrl: url });
          if (afterUrl.publicUrl !== url) {
            const shown = typeof afterUrl.publicUrl === "string" ? `a publicUrl of ${afterUrl.publicUrl.length} characters${url.startsWith(afterUrl.publicUrl) ? ", the start of the one sent" : ""}` : JSON.stringify(afterUrl.publicUrl);
            s.fail(`after sending a publicUrl of ${url.length} characters (${url.slice(0, 60)}…), getFile shows ${shown}`);
          }
        }
      });
    },
  },
);
