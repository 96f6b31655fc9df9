import {
  labelClassChunks,
  labelClassesList,
  labelClassNames,
  LONG_LIST,
  LONG_URL_LENGTH,
  longPublicUrl,
  SERVICE_LABEL_LIMIT,
} from "../inputs/label-classes.ts";
import { validUpdateBodies } from "../inputs/generators.ts";
import { GROWING_LIST_LENGTHS, publicUrlForms } from "../inputs/url-forms.ts";
import type { Exchange } from "../http/exchange.ts";
import { readFileState, updateTarget, withRestore, type FileState } from "./file-state.ts";
import { scenarioCheck, type Scenario } from "./types.ts";

/** What a read shows of an update: right (undefined), a difference the run warns of, or one it fails. */
export type ReadBack = { warn: string; kind: "another order" | "duplicates collapsed" } | { fail: string } | undefined;

const sorted = (labels: readonly string[]) => JSON.stringify([...labels].sort());

// Why a read in another order, or with duplicates collapsed, is warned and not failed: the service's own documents
// speak of "unique labels", and its Python SDK's integration test compares them as a set.
const AS_A_SET = `(warned, not failed: the service keeps "unique labels" and its own SDK's test compares them as a set; docs/decisions.md, D06)`;

/**
 * Whether `read` shows the labels `sent`: exactly is right; the same labels in another order, or with duplicates
 * collapsed, is warned; any other change to the set fails. Resolves with the words of what differs.
 */
export function labelsReadBack(sent: readonly string[], read: unknown): ReadBack {
  const shown = `after sending labels ${JSON.stringify(sent).slice(0, 200)}, getFile shows ${JSON.stringify(read)?.slice(0, 200)}`;
  if (JSON.stringify(read) === JSON.stringify(sent)) return undefined;
  if (!Array.isArray(read)) return { fail: shown };
  if (sorted(read) === sorted(sent))
    return { warn: `${shown}: the same labels in another order ${AS_A_SET}`, kind: "another order" };
  if (sorted(read) === sorted([...new Set(sent)]))
    return { warn: `${shown}: the same labels with duplicates collapsed ${AS_A_SET}`, kind: "duplicates collapsed" };
  return { fail: shown };
}

/**
 * Whether a read shows an update: the labels as sent (when sent, and not `null`: labelsReadBack), and the publicUrl as
 * sent (when sent, not `null`, and where the metadata carries one). `null` is "not given" (docs/decisions.md, D05).
 */
export function persistedProblem(
  sent: { labels?: unknown; publicUrl?: unknown },
  read: Record<string, unknown>,
): ReadBack {
  const labels = Array.isArray(sent.labels) ? labelsReadBack(sent.labels as string[], read.labels) : undefined;
  if (labels) return labels;
  if (typeof sent.publicUrl === "string" && read.publicUrl !== undefined && read.publicUrl !== sent.publicUrl) {
    return {
      fail: `after sending publicUrl ${JSON.stringify(sent.publicUrl).slice(0, 120)}, getFile shows ${JSON.stringify(read.publicUrl).slice(0, 120)}`,
    };
  }
  return undefined;
}

/**
 * update_persisted: an update is visible in the next read: labels as sent (every class of value a server might
 * normalize; another order or duplicates collapsed warned), `[]` clearing them, and publicUrl where the metadata shows it.
 */
export const updatePersisted = scenarioCheck(
  "update_persisted",
  "An update is visible in the next getFile: the labels sent (duplicates, whitespace, both Unicode forms, the empty string, long labels, long lists, non-Latin text, commas: each kept as sent; read back in another order or with duplicates collapsed is warned; a list over the service's 20 unique labels, or duplicates, may be refused with 422, and the classes are then sent in lists of at most 20: decisions.md, D06), labels: [] clears them, and a publicUrl of 2,048 characters reads back where the metadata shows it (labels replace the list: decisions.md, D05).",
  {
    operations: ["updateFile"],
    requires: ["state", "writes"],
    async run(s) {
      await withRestore(s, async (before) => {
        // Each update is read back on the writer's kept-alive connection and on a new one: an accepted update shows in
        // every read that starts after it ended, whatever connection it comes on (decisions.md, D24).
        const readBack = async (body: Record<string, unknown>) => {
          const what = `the update ${JSON.stringify(body).slice(0, 200)}`;
          const read = await readFileState(s);
          const elsewhere = await readFileState(s, { freshConnection: true });
          if (JSON.stringify(elsewhere) !== JSON.stringify(read)) {
            s.fail(
              `after ${what} (accepted), a read on a new connection shows ${JSON.stringify(elsewhere).slice(0, 200)} where the writer's connection shows ${JSON.stringify(read).slice(0, 200)}: an accepted update shows in every read that starts after it`,
            );
          }
          return read;
        };
        const update = async (body: Record<string, unknown>) => {
          await updateTarget(s, body, `the update ${JSON.stringify(body).slice(0, 200)}`);
          return readBack(body);
        };

        // A difference the run only warns of is said once per kind, however many reads show it.
        const warned = new Set<string>();
        const judge = (verdict: ReadBack) => {
          if (!verdict) return;
          if ("fail" in verdict) return s.fail(verdict.fail);
          if (!warned.has(verdict.kind)) {
            warned.add(verdict.kind);
            s.warn(verdict.warn);
          }
        };

        const ordered = ["contract-check-b", "contract-check-a", ...before.labels.slice(0, 1)];
        judge(persistedProblem({ labels: ordered }, await update({ labels: ordered })));

        // The report's SENT line names each class, so that a reader sees what the run tried.
        for (const name of labelClassNames()) s.record(`labels: ${name}, read back`);
        await labelClasses(s, readBack, judge);

        const cleared = await update({ labels: [] });
        if (cleared.labels.length !== 0)
          s.fail(`after sending labels: [], getFile shows ${JSON.stringify(cleared.labels)}: [] must clear the list`);

        // publicUrl is read back where the server's metadata carries it (it is optional in FileMetadata), and only
        // where the run can put it back. It is as long as real signed URLs get, past common column types, and in each
        // form a URL parser rewrites when it stores a URL as an object and writes it back.
        if (before.publicUrl !== undefined) {
          const url = longPublicUrl(s.target.fileId);
          s.record(`publicUrl: ${LONG_URL_LENGTH.toLocaleString("en-US")} characters, read back`);
          const afterUrl = await update({ publicUrl: url });
          if (afterUrl.publicUrl !== url) {
            const shown =
              typeof afterUrl.publicUrl === "string"
                ? `a publicUrl of ${afterUrl.publicUrl.length} characters${url.startsWith(afterUrl.publicUrl) ? ", the start of the one sent" : ""}`
                : JSON.stringify(afterUrl.publicUrl);
            s.fail(
              `after sending a publicUrl of ${url.length} characters (${url.slice(0, 60)}…), getFile shows ${shown}`,
            );
          }
          for (const { url: formed, form } of publicUrlForms(s.target.fileId)) {
            s.record(`publicUrl: ${form}, read back`);
            const read = await update({ publicUrl: formed });
            if (read.publicUrl !== formed)
              s.fail(
                `after sending the publicUrl ${JSON.stringify(formed)} (${form}), getFile shows ${JSON.stringify(read.publicUrl)}: it must read back exactly as sent`,
              );
          }
        }

        // Lists longer than common limits, climbing until the server refuses one: a refused limit is correct (422), a
        // list cut short without a word is not.
        for (const length of GROWING_LIST_LENGTHS) {
          const list = Array.from({ length }, (_, i) => `contract-list-${i + 1}`);
          s.record(`labels: a list of ${length.toLocaleString("en-US")} read back`);
          const ex = await s.send({ fileId: s.target.fileId, json: { labels: list } });
          if (ex.status === 422) break;
          if (ex.status !== 200)
            s.fail(`a list of ${length} labels got HTTP ${ex.status}, expected 200 or a refusal with 422`, ex);
          const read = await readFileState(s);
          const verdict = labelsReadBack(list, read.labels);
          if (verdict && "fail" in verdict) {
            s.fail(
              `after sending a list of ${length} labels (accepted with 200), getFile shows ${read.labels.length}: a limit must be refused with 422, not applied in silence`,
            );
          }
          judge(verdict);
        }

        // Values generated from the seed (as positive_data_acceptance sends them), each read back and compared exactly.
        await s.forAll(validUpdateBodies(s.spec, { withPublicUrl: before.publicUrl !== undefined }), async (json) => {
          s.record("generated from the seed, read back");
          judge(persistedProblem(json, await update(json)));
        });

        if (before.publicUrl !== undefined) await concurrentUpdates(s, update);
      });
    },
  },
);

/** Reads the file back after an accepted update of `body`, on two connections, as update_persisted does after each. */
type ReadAfter = (body: Record<string, unknown>) => Promise<FileState>;

/**
 * Every label class, read back: in one list of 60, or, when the server refuses that with 422 (the service keeps at
 * most 20 unique labels), in lists of at most SERVICE_LABEL_LIMIT without duplicates and the duplicates on their own,
 * which it may refuse with 422 too. Any other list it must take (docs/decisions.md, D06).
 */
async function labelClasses(s: Scenario, readBack: ReadAfter, judge: (verdict: ReadBack) => void): Promise<void> {
  const classes = labelClassesList();
  const whole = await s.send({ fileId: s.target.fileId, json: { labels: classes } });
  if (whole.status !== 200 && whole.status !== 422) fail(s, whole, classes);
  const lists = whole.status === 422 ? labelClassChunks() : [classes];
  s.record(
    whole.status === 422
      ? `labels: the classes in lists of at most ${SERVICE_LABEL_LIMIT} (a list of ${LONG_LIST} refused with 422), read back`
      : `labels: a list of ${LONG_LIST} items, read back`,
  );
  for (const labels of lists) {
    // The whole list was sent above; the lists after a refusal are sent here.
    if (whole.status === 422) {
      const ex = await s.send({ fileId: s.target.fileId, json: { labels } });
      // Duplicates may be refused as the whole list was: the service keeps unique labels.
      if (ex.status === 422 && new Set(labels).size < labels.length) continue;
      if (ex.status !== 200) fail(s, ex, labels);
    }
    const read = await readBack({ labels });
    const verdict = labelsReadBack(labels, read.labels);
    if (verdict && "fail" in verdict) {
      const changed = labels.filter((label, j) => read.labels[j] !== label).slice(0, 5);
      s.fail(
        `labels did not come back as sent: ${labels.length} sent, ${read.labels.length} read back; the first that differ: ${changed.map((l) => JSON.stringify(l.slice(0, 40))).join(", ")}`,
      );
    }
    judge(verdict);
  }
}

/** Fails a refused list of labels, naming what a server may refuse (more than the service's limit, duplicates) when the list had it. */
function fail(s: Scenario, ex: Exchange, labels: string[]): never {
  const duplicates = new Set(labels).size < labels.length;
  // Stryker disable next-line StringLiteral: equivalent; a list over the limit is only ever the classes' list, which has duplicates
  const refusable = `more than ${SERVICE_LABEL_LIMIT} labels${duplicates ? " or duplicates" : ""}`;
  // Stryker disable next-line ConditionalExpression: equivalent; as above, a list over the limit also has duplicates
  const allowed = labels.length > SERVICE_LABEL_LIMIT || duplicates ? `200, or 422 refusing ${refusable}` : "200";
  return s.fail(
    `a list of ${labels.length} labels${duplicates ? " with duplicates" : ""} (${JSON.stringify(labels).slice(0, 120)}) got HTTP ${ex.status}, expected ${allowed}`,
    ex,
  );
}

/** How many reads the suite sends, one after another, while an update of both fields is in flight. */
const READS_IN_FLIGHT = 3;

/**
 * Two writes at once (docs/decisions.md, D07): two partial updates of the file sent together, one of labels
 * and one of publicUrl, must both hold when the file is read afterwards (a read-modify-write without a lock loses
 * one); and reads sent while an update of both fields is in flight must see the file as it was or as it became, never
 * one field of each (an update applied in steps).
 */
async function concurrentUpdates(
  s: Scenario,
  update: (body: Record<string, unknown>) => Promise<FileState>,
): Promise<void> {
  const stamp = Date.now();
  const labels = [`contract-concurrent-${stamp}`];
  const publicUrl = `https://contract-check.example.test/concurrent/${encodeURIComponent(s.target.fileId)}?t=${stamp}`;
  s.record("two partial updates at once (labels, publicUrl), read back");
  const both = await Promise.all([
    s.send({ fileId: s.target.fileId, json: { labels } }),
    s.send({ fileId: s.target.fileId, json: { publicUrl } }),
  ]);
  for (const ex of both)
    if (ex.status !== 200) s.fail(`one of two partial updates sent at once got HTTP ${ex.status}, expected 200`, ex);
  const after = await readFileState(s);
  const lost = [
    JSON.stringify(after.labels) === JSON.stringify(labels)
      ? undefined
      : `labels ${JSON.stringify(after.labels)} (sent ${JSON.stringify(labels)})`,
    after.publicUrl === publicUrl
      ? undefined
      : `publicUrl ${JSON.stringify(after.publicUrl)} (sent ${JSON.stringify(publicUrl)})`,
  ].filter(Boolean);
  if (lost.length > 0) {
    // Sent one after the other, do they both hold? If not, the server drops an omitted field: omitted_fields_kept's
    // finding, not a lost update (the two at once could not both hold either way).
    await updateTarget(s, { labels }, "a partial update of labels");
    await updateTarget(s, { publicUrl }, "a partial update of publicUrl");
    const sequential = await readFileState(s);
    if (JSON.stringify(sequential.labels) !== JSON.stringify(labels) || sequential.publicUrl !== publicUrl) return;
    s.fail(
      `two partial updates sent at once were both accepted, but getFile shows ${lost.join(" and ")}, though the same two sent one after the other both hold: one update was lost, as by a read-modify-write without a lock`,
    );
  }

  const was = { labels, publicUrl };
  const becomes = { labels: [`contract-in-flight-${stamp}`], publicUrl: `${publicUrl}&in-flight` };
  s.record(`reads while an update is in flight (up to ${READS_IN_FLIGHT})`);
  let settled = false;
  const writing = s.send({ fileId: s.target.fileId, json: becomes }).finally(() => (settled = true));
  const seen: FileState[] = [];
  for (let i = 0; i < READS_IN_FLIGHT && !settled; i++) seen.push(await readFileState(s, { freshConnection: true }));
  const written = await writing;
  if (written.status !== 200) s.fail(`an update of both fields got HTTP ${written.status}, expected 200`, written);
  const same = (a: FileState, b: FileState) =>
    JSON.stringify(a.labels) === JSON.stringify(b.labels) && a.publicUrl === b.publicUrl;
  const mixed = seen.find((read) => !same(read, was) && !same(read, becomes));
  if (mixed)
    s.fail(
      `a read sent while the update ${JSON.stringify(becomes)} was in flight shows ${JSON.stringify(mixed)}: neither the file as it was (${JSON.stringify(was)}) nor as it became, one field of each`,
    );
  await update(becomes);
}
