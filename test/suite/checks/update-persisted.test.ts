import { describe, expect, it } from "vitest";
import { persistedProblem, updatePersisted } from "../../../contract-tests/checks/update-persisted.ts";
import { labelClassesList } from "../../../contract-tests/inputs/label-classes.ts";
import { metadataOf } from "../../support/exchange-builder.ts";
import {
  fileServer,
  runCheck,
  type FileServerOptions,
  type Outcome,
  type Script,
  type SentRequest,
} from "../../support/fake-scenario.ts";

const WITH_URL = metadataOf({ publicUrl: "https://cdn.test/a" });
const runScript = (script: Script) => runCheck(updatePersisted, { operationId: "updateFile", answer: script });
const run = (server: FileServerOptions = {}) => runScript(fileServer(server));
/** A server that stores what `change` makes of each update. */
const storing = (
  change: (body: Record<string, unknown>) => Record<string, unknown>,
  metadata = WITH_URL,
): FileServerOptions => ({ metadata, update: (file, body) => ({ ...file, ...change(body) }) });
const bodyOf = (r: SentRequest) => (r.json ?? {}) as { labels?: string[]; publicUrl?: string };
/** The two partial updates the suite sends at once, and the update of both fields it reads during. */
const concurrentLabels = (r: SentRequest) =>
  /^contract-concurrent-\d+$/.test(bodyOf(r).labels?.[0] ?? "") && bodyOf(r).publicUrl === undefined;
const concurrentUrl = (r: SentRequest) =>
  /\/concurrent\/doc-1\?t=\d+$/.test(bodyOf(r).publicUrl ?? "") && bodyOf(r).labels === undefined;
const inFlight = (r: SentRequest) => /^contract-in-flight-\d+$/.test(bodyOf(r).labels?.[0] ?? "");
/** The updates a run sent, in order. */
const updates = (outcome: Outcome) => outcome.sent.filter((r) => r.operationId === "updateFile");
/** One step later: after every promise already settled, as a server's next turn (setImmediate; never a timer). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A server without a lock: an update reads the file when it arrives and writes it one turn later. Of two updates at
 * once (each answered 200), `lost` is the one the server loses: labels or publicUrl (the other's write covers it), or
 * both (dropped as a conflict). Updates one after the other hold.
 */
function unlocked(lost: "labels" | "publicUrl" | "both"): Script {
  let base: Record<string, unknown> | undefined;
  const server = fileServer({ metadata: WITH_URL, update: (file, body) => ({ ...(base ?? file), ...body }) });
  let arrived = 0;
  let pending = 0;
  return async (r, index) => {
    if (r.operationId !== "updateFile") return server(r, index);
    const seen = server.file;
    const mine = ++arrived;
    const overlapped = pending++ > 0;
    await null;
    // The labels' write lands last unless publicUrl is the one lost.
    if (lost === "publicUrl" && bodyOf(r).labels !== undefined) await null;
    pending--;
    if (lost === "both" && (overlapped || arrived !== mine)) return {};
    base = seen;
    try {
      return server(r, index);
    } finally {
      base = undefined;
    }
  };
}

/**
 * A server that holds its answer to the update of both fields (the one the suite reads during) until it has answered
 * three reads, each answered a turn later. `apply` is when that update changes the file: all of it on arrival, all of
 * it when answered, or labels on arrival and publicUrl when answered (an update applied in steps). `status` is its answer.
 */
function holding(apply: "on arrival" | "when answered" | "in steps", status = 200): Script {
  const server = fileServer({ metadata: WITH_URL });
  let release: (() => void) | undefined;
  let held = false;
  let reads = 0;
  return async (r, index) => {
    if (r.operationId === "getFile") {
      if (release && ++reads === 3) release();
      const answered = server(r, index);
      await nextTurn();
      return answered;
    }
    if (!inFlight(r) || held) return server(r, index);
    held = true;
    if (apply === "on arrival") server(r, index);
    if (apply === "in steps") server({ ...r, json: { labels: bodyOf(r).labels } }, index);
    await new Promise<void>((resolve) => (release = resolve));
    release = undefined;
    if (status !== 200) return { status, json: { code: status, message: "conflict" } };
    if (apply !== "on arrival") server(r, index);
    await nextTurn();
    return {};
  };
}

describe("update_persisted", () => {
  it("updates labels in order, every label class, [], then a long publicUrl, reading back after each; puts the file back; no warning", async () => {
    const server = fileServer({ metadata: WITH_URL });
    const outcome = await runCheck(updatePersisted, { operationId: "updateFile", answer: server });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    // Each update is read back twice: on the kept-alive connection, then on a new one.
    expect(outcome.sent.slice(0, 4).map((r) => [r.operationId, r.freshConnection ?? false])).toEqual([
      ["getFile", false],
      ["updateFile", false],
      ["getFile", false],
      ["getFile", true],
    ]);
    const bodies = outcome.sent
      .filter((r) => r.operationId === "updateFile")
      .map((r) => r.json as Record<string, unknown>);
    expect(bodies[0]).toEqual({ labels: ["contract-check-b", "contract-check-a", "q3"] });
    expect(bodies[1]).toEqual({ labels: labelClassesList() });
    expect(bodies[2]).toEqual({ labels: [] });
    expect(Object.keys(bodies[3]!)).toEqual(["publicUrl"]);
    expect((bodies[3]!.publicUrl as string).length).toBe(2048);
    // The forms a URL parser rewrites, then lists of 101, 256 and 1,001 labels, each read back.
    expect(bodies.slice(4, 9).map((b) => Object.keys(b))).toEqual(Array(5).fill(["publicUrl"]));
    expect(bodies.slice(9, 12).map((b) => (b.labels as string[]).length)).toEqual([101, 256, 1_001]);
    expect(bodies.at(-1)).toEqual({ labels: ["q3"], publicUrl: "https://cdn.test/a" });
    expect(outcome.records).toEqual(
      expect.arrayContaining([
        "labels: duplicates, read back",
        "labels: a list of 60 items, read back",
        "publicUrl: 2,048 characters, read back",
        "two partial updates at once (labels, publicUrl), read back",
      ]),
    );
    expect(server.file).toEqual(WITH_URL);
  });

  it("sends no publicUrl when the file's metadata has none", async () => {
    const outcome = await run();
    expect(outcome.state).toBe("passed");
    // null, "not given", is all it sends for publicUrl: it changes nothing.
    expect(
      outcome.sent.filter((r) => r.operationId === "updateFile" && typeof bodyOf(r).publicUrl === "string"),
    ).toEqual([]);
    expect(outcome.sent.some((r) => r.operationId === "updateFile" && bodyOf(r).publicUrl === null)).toBe(true);
    expect(outcome.records).not.toContain("publicUrl: 2,048 characters, read back");
  });

  it("warns, once, of labels that come back in another order (the service compares them as a set), and passes", async () => {
    const outcome = await run(
      storing((body) => (Array.isArray(body.labels) ? { ...body, labels: [...body.labels].sort() } : body)),
    );
    expect(outcome).toMatchObject({ state: "passed" });
    expect(outcome.warnings).toEqual([
      'after sending labels ["contract-check-b","contract-check-a","q3"], getFile shows ["contract-check-a","contract-check-b","q3"]: the same labels in another order (warned, not failed: the service keeps "unique labels" and its own SDK\'s test compares them as a set; docs/decisions.md, D06)',
    ]);
  });

  it("warns of duplicates collapsed, in any order, and passes", async () => {
    const outcome = await run(
      storing((body) => (Array.isArray(body.labels) ? { ...body, labels: [...new Set(body.labels)].reverse() } : body)),
    );
    expect(outcome.state).toBe("passed");
    expect(outcome.warnings).toHaveLength(2);
    expect(outcome.warnings[1]).toMatch(
      /^after sending labels \["dup","dup",.*: the same labels with duplicates collapsed \(warned, not failed: /,
    );
  });

  it("fails labels normalized on the way, naming the first that differ", async () => {
    const trimmed = (labels: string[]) => (labels.length > 3 ? labels.map((l) => l.trim()) : labels);
    const outcome = await run(storing((body) => ({ labels: trimmed(body.labels as string[]) })));
    expect(outcome).toMatchObject({
      state: "failed",
      problem:
        'labels did not come back as sent: 60 sent, 60 read back; the first that differ: "  padded  ", "\\ttabbed", " ,", " both ", "\\n newline at the start"',
    });
    // One dropped where it is no duplicate: a change to the set.
    const dropped = await run(
      storing((body) => ({ labels: (body.labels as string[]).filter((label) => label !== "caf\u00e9") })),
    );
    const firstFive = ["caf\u00e9", "cafe\u0301", "", "l".repeat(40), "red,green"]
      .map((label) => JSON.stringify(label))
      .join(", ");
    expect(dropped.problem).toBe(
      `labels did not come back as sent: 60 sent, 59 read back; the first that differ: ${firstFive}`,
    );
    const cut = await run(
      storing((body) => ({ labels: (body.labels as string[]).map((label) => label.slice(0, 255)) })),
    );
    expect(cut.problem).toBe(
      `labels did not come back as sent: 60 sent, 60 read back; the first that differ: "${"l".repeat(40)}"`,
    );
  });

  it("fails labels: [] that does not clear the list", async () => {
    const outcome = await run(
      storing((body) => ((body.labels as string[]).length === 0 ? {} : { labels: body.labels })),
    );
    expect(outcome.state).toBe("failed");
    expect(outcome.problem).toMatch(
      /^after sending labels: \[\], getFile shows \["dup","dup",.*"contract-label-\d+"\]: \[\] must clear the list$/,
    );
  });

  it("fails a publicUrl cut short, saying it is the start of the one sent", async () => {
    const outcome = await run(
      storing((body) => (typeof body.publicUrl === "string" ? { publicUrl: body.publicUrl.slice(0, 255) } : body)),
    );
    expect(outcome.state).toBe("failed");
    expect(outcome.problem).toMatch(
      /^after sending a publicUrl of 2048 characters \(https:\/\/contract-check\.example\.test\/doc-1\?v=\d{13}&to…\), getFile shows a publicUrl of 255 characters, the start of the one sent$/,
    );
  });

  it("fails a publicUrl ignored, or dropped", async () => {
    const ignored = await run(storing((body) => ("labels" in body ? { labels: body.labels } : {})));
    expect(ignored.problem).toMatch(/, getFile shows a publicUrl of 18 characters$/);
    const dropped = await run({
      metadata: WITH_URL,
      update: (file, body) => ("publicUrl" in body ? { ...file, publicUrl: undefined } : { ...file, ...body }),
    });
    expect(dropped.problem).toMatch(/, getFile shows undefined$/);
  });

  it("puts only the file's first label after its own two, so that their order shows", async () => {
    const outcome = await run({ metadata: metadataOf({ labels: ["q3", "q4"] }) });
    expect(outcome.sent[1]!.json).toEqual({ labels: ["contract-check-b", "contract-check-a", "q3"] });
  });

  it("fails the label classes' list refused otherwise than with 422, naming what a server may refuse", async () => {
    // The label classes' update: after the first read, the first update and its two reads (one on a new connection).
    const outcome = await run({ before: (r, index) => (index === 4 ? { status: 400, json: {} } : undefined) });
    expect(outcome.problem).toBe(
      `a list of 60 labels with duplicates (${JSON.stringify(labelClassesList()).slice(0, 120)}) got HTTP 400, expected 200, or 422 refusing more than 20 labels or duplicates`,
    );
  });

  it("fails a long update that is refused, quoting at most 200 characters of it", async () => {
    const outcome = await run({
      metadata: WITH_URL,
      before: (r) => ((bodyOf(r).publicUrl?.length ?? 0) === 2048 ? { status: 400, json: {} } : undefined),
    });
    expect(outcome.state).toBe("failed");
    const quoted = outcome.problem!.slice("the update ".length, -" got HTTP 400, expected 200".length);
    expect(outcome.problem).toBe(`the update ${quoted} got HTTP 400, expected 200`);
    expect(quoted).toHaveLength(200);
    expect(quoted.startsWith('{"publicUrl":"https://')).toBe(true);
  });

  it("fails a read on a new connection that does not show the label classes' list, quoting that update", async () => {
    const original = metadataOf();
    const outcome = await run({
      before: (r, _index, stored) =>
        r.freshConnection && (stored.file.labels as string[]).length === labelClassesList().length
          ? { json: original }
          : undefined,
    });
    expect(outcome.state).toBe("failed");
    const quoted = JSON.stringify({ labels: labelClassesList() }).slice(0, 200);
    expect(outcome.problem).toContain(`after the update ${quoted} (accepted), a read on a new connection shows `);
  });

  it("fails an update that is refused, naming it", async () => {
    const outcome = await run({
      before: (r) => (r.operationId === "updateFile" && !r.essential ? { status: 422, json: {} } : undefined),
    });
    expect(outcome).toMatchObject({
      state: "failed",
      problem: 'the update {"labels":["contract-check-b","contract-check-a","q3"]} got HTTP 422, expected 200',
    });
  });
});

describe("update_persisted: what it sends and reads back", () => {
  it("sends the lists as contract-list-1 to N, generated values with a publicUrl where the file has one, then the updates at once; records each", async () => {
    const outcome = await run({ metadata: WITH_URL });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    const lists = updates(outcome)
      .filter((r) => (bodyOf(r).labels?.length ?? 0) > 100)
      .map((r) => bodyOf(r).labels!);
    expect(lists.map((list) => [list.length, list[0], list.at(-1)])).toEqual([
      [101, "contract-list-1", "contract-list-101"],
      [256, "contract-list-1", "contract-list-256"],
      [1_001, "contract-list-1", "contract-list-1001"],
    ]);
    // Generated from the seed: between the longest list and the two updates at once.
    const all = updates(outcome);
    const generated = all.slice(
      all.findIndex((r) => bodyOf(r).labels?.length === 1_001) + 1,
      all.findIndex(concurrentLabels),
    );
    expect(generated).toHaveLength(5);
    expect(generated.some((r) => typeof bodyOf(r).publicUrl === "string")).toBe(true);
    expect(outcome.records.filter((kind) => kind === "generated from the seed, read back")).toHaveLength(5);
    expect(outcome.records).toEqual(
      expect.arrayContaining([
        "publicUrl: an upper-case scheme and host, read back",
        "publicUrl: a query string and a fragment, read back",
        "labels: a list of 1,001 read back",
        "reads while an update is in flight (up to 3)",
      ]),
    );
    // The two at once, then the update of both fields, read during on a new connection (once here: it is answered at once).
    const at = outcome.sent.findIndex(concurrentLabels);
    expect(concurrentUrl(outcome.sent[at + 1]!)).toBe(true);
    const during = outcome.sent.findIndex(inFlight);
    const stamp = bodyOf(outcome.sent[at]!).labels![0]!.slice("contract-concurrent-".length);
    expect(outcome.sent[during]!.json).toEqual({
      labels: [`contract-in-flight-${stamp}`],
      publicUrl: `https://contract-check.example.test/concurrent/doc-1?t=${stamp}&in-flight`,
    });
    expect(
      outcome.sent.slice(during + 1, during + 3).map((r) => [r.operationId, r.freshConnection ?? false, inFlight(r)]),
    ).toEqual([
      ["getFile", true, false],
      ["updateFile", false, true],
    ]);
  });

  it("fails a read on a new connection that does not show an accepted update, quoting at most 200 characters of each read", async () => {
    const long = metadataOf({ labels: ["x".repeat(250)], publicUrl: "https://cdn.test/a" });
    // A replica that lags: a new connection reads the file as it was.
    const outcome = await run({ metadata: long, before: (r) => (r.freshConnection ? { json: long } : undefined) });
    const sent = JSON.stringify({ labels: ["contract-check-b", "contract-check-a", "x".repeat(250)] });
    const writer = JSON.stringify({
      labels: ["contract-check-b", "contract-check-a", "x".repeat(250)],
      publicUrl: "https://cdn.test/a",
    });
    const elsewhere = JSON.stringify({ labels: ["x".repeat(250)], publicUrl: "https://cdn.test/a" });
    expect(outcome).toMatchObject({
      state: "failed",
      problem: `after the update ${sent.slice(0, 200)} (accepted), a read on a new connection shows ${elsewhere.slice(0, 200)} where the writer's connection shows ${writer.slice(0, 200)}: an accepted update shows in every read that starts after it`,
    });
  });

  it("fails a publicUrl a URL parser rewrote, naming its form", async () => {
    const outcome = await run(
      storing((body) => (typeof body.publicUrl === "string" ? { publicUrl: new URL(body.publicUrl).href } : body)),
    );
    expect(outcome.state).toBe("failed");
    expect(outcome.problem).toMatch(
      /^after sending the publicUrl "HTTPS:\/\/CDN\.Contract-Check\.EXAMPLE\.test\/doc-1\?v=(\d+)" \(an upper-case scheme and host\), getFile shows "https:\/\/cdn\.contract-check\.example\.test\/doc-1\?v=\1": it must read back exactly as sent$/,
    );
  });

  it("takes a list refused with 422 and sends no longer one; fails a list refused otherwise, or cut short in silence", async () => {
    const limit = (status: number, above: number): FileServerOptions => ({
      metadata: WITH_URL,
      before: (r) =>
        (bodyOf(r).labels?.length ?? 0) > above
          ? { status, json: { code: status, message: "too many labels" } }
          : undefined,
    });
    const refused = await run(limit(422, 255));
    expect(refused).toMatchObject({ state: "passed", warnings: [] });
    expect(
      updates(refused)
        .map((r) => bodyOf(r).labels?.length ?? 0)
        .filter((length) => length > 100),
    ).toEqual([101, 256]);
    expect(await run(limit(413, 100))).toMatchObject({
      state: "failed",
      problem: "a list of 101 labels got HTTP 413, expected 200 or a refusal with 422",
    });
    const cut = await run(
      storing((body) => (Array.isArray(body.labels) ? { labels: body.labels.slice(0, 255) } : body)),
    );
    expect(cut).toMatchObject({
      state: "failed",
      problem:
        "after sending a list of 256 labels (accepted with 200), getFile shows 255: a limit must be refused with 422, not applied in silence",
    });
  });

  it("fails a generated value that does not read back as sent", async () => {
    let listsDone = false;
    const outcome = await run({
      metadata: WITH_URL,
      update: (file, body) => {
        const labels = body.labels as string[] | undefined;
        const changed = listsDone && labels !== undefined ? { labels: [...labels, "extra"] } : {};
        listsDone ||= labels?.length === 1_001;
        return { ...file, ...body, ...changed };
      },
    });
    expect(outcome.state).toBe("failed");
    expect(outcome.problem).toMatch(/^after sending labels \[.*\], getFile shows \[(.*,)?"extra"\]$/);
  });
});

/** A server with the service's own limit: more than `max` unique labels refused with 422, and duplicates too when told. */
const limited = (max: number, { duplicates = false } = {}): FileServerOptions => ({
  metadata: WITH_URL,
  before: (r) => {
    const labels = bodyOf(r).labels;
    if (r.operationId !== "updateFile" || !Array.isArray(labels)) return undefined;
    const refused = new Set(labels).size > max || (duplicates && new Set(labels).size < labels.length);
    return refused
      ? {
          status: 422,
          json: { detail: [{ loc: ["body", "labels"], msg: `at most ${max} unique labels`, type: "too_long" }] },
        }
      : undefined;
  },
});

describe("update_persisted: the service's limit of 20 unique labels", () => {
  it("passes a server that refuses more than 20 labels, and duplicates, with 422: sends the classes in lists of at most 20 without duplicates, the duplicates alone", async () => {
    const outcome = await run(limited(20, { duplicates: true }));
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    const sent = updates(outcome).map((r) => bodyOf(r).labels?.length);
    // The whole list (refused), then 20, 1 and the two duplicates (refused too), each read back but the refused.
    const at = sent.indexOf(60);
    expect(sent.slice(at, at + 4)).toEqual([60, 20, 1, 2]);
    const lists = updates(outcome)
      .slice(at + 1, at + 4)
      .map((r) => bodyOf(r).labels!);
    expect(lists.slice(0, 2).every((list) => new Set(list).size === list.length && list.length <= 20)).toBe(true);
    expect(lists[2]).toEqual(["dup", "dup"]);
    expect(outcome.records).toContain(
      "labels: the classes in lists of at most 20 (a list of 60 refused with 422), read back",
    );
    expect(outcome.records).not.toContain("labels: a list of 60 items, read back");
    // Every class's values, each once, across the lists.
    expect(new Set(lists.flat())).toEqual(
      new Set(labelClassesList().filter((label) => !label.startsWith("contract-label-"))),
    );
  });

  it("reads back the duplicates a server with the limit takes", async () => {
    const outcome = await run(limited(20));
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    const at = outcome.sent.findIndex(
      (r) => r.operationId === "updateFile" && bodyOf(r).labels?.[0] === "dup" && bodyOf(r).labels!.length === 2,
    );
    expect(outcome.sent.slice(at + 1, at + 3).map((r) => r.operationId)).toEqual(["getFile", "getFile"]);
  });

  it("fails a server whose limit is lower than the service's: a list of 20 without duplicates must be taken", async () => {
    const outcome = await run(limited(10));
    expect(outcome.state).toBe("failed");
    expect(outcome.problem).toMatch(/^a list of 20 labels \(\["  padded  ",.*\) got HTTP 422, expected 200$/);
    expect(outcome.exchange?.status).toBe(422);
  });

  it("fails the duplicates refused otherwise than with 422, naming what a server may refuse", async () => {
    const limit = limited(20);
    const outcome = await run({
      ...limit,
      before: (r, index, stored) =>
        JSON.stringify(bodyOf(r).labels) === '["dup","dup"]'
          ? { status: 400, json: {} }
          : limit.before!(r, index, stored),
    });
    expect(outcome.problem).toBe(
      'a list of 2 labels with duplicates (["dup","dup"]) got HTTP 400, expected 200, or 422 refusing more than 20 labels or duplicates',
    );
  });

  it("fails a list of the classes it refuses for any other reason", async () => {
    const refusesEmpty: FileServerOptions = {
      metadata: WITH_URL,
      before: (r) =>
        r.operationId === "updateFile" && bodyOf(r).labels?.includes("") ? { status: 422, json: {} } : undefined,
    };
    const outcome = await run(refusesEmpty);
    expect(outcome.problem).toMatch(/^a list of 20 labels \(.*\) got HTTP 422, expected 200$/);
  });
});

describe("update_persisted: writes at once", () => {
  it("fails two partial updates at once that both got 200 when the file keeps one, though one after the other both hold", async () => {
    const labelsLost = await runScript(unlocked("labels"));
    expect(labelsLost.state).toBe("failed");
    expect(labelsLost.problem).toMatch(
      /^two partial updates sent at once were both accepted, but getFile shows labels \[.*\] \(sent \["contract-concurrent-\d+"\]\), though the same two sent one after the other both hold: one update was lost, as by a read-modify-write without a lock$/,
    );
    // One after the other: labels, then publicUrl, then a read.
    const at = labelsLost.sent.findIndex(concurrentLabels);
    expect(
      labelsLost.sent.slice(at + 2, at + 6).map((r) => [r.operationId, concurrentLabels(r), concurrentUrl(r)]),
    ).toEqual([
      ["getFile", false, false],
      ["updateFile", true, false],
      ["updateFile", false, true],
      ["getFile", false, false],
    ]);
    const urlLost = await runScript(unlocked("publicUrl"));
    expect(urlLost.problem).toMatch(
      /^two partial updates sent at once were both accepted, but getFile shows publicUrl "[^"]*" \(sent "https:\/\/contract-check\.example\.test\/concurrent\/doc-1\?t=\d+"\), though /,
    );
    const bothLost = await runScript(unlocked("both"));
    expect(bothLost.problem).toMatch(
      /^two partial updates sent at once were both accepted, but getFile shows labels \[.*\] \(sent \["contract-concurrent-\d+"\]\) and publicUrl "[^"]*" \(sent "[^"]+"\), though /,
    );
  });

  it("fails an update at once that is refused, and a refused update one after the other, naming it", async () => {
    const refusing = (which: (r: SentRequest) => boolean, nth: number, inner: Script): Script => {
      let seen = 0;
      return (r, index) =>
        which(r) && ++seen === nth ? { status: 409, json: { code: 409, message: "conflict" } } : inner(r, index);
    };
    expect(await runScript(refusing(concurrentUrl, 1, fileServer({ metadata: WITH_URL })))).toMatchObject({
      state: "failed",
      problem: "one of two partial updates sent at once got HTTP 409, expected 200",
    });
    expect(await runScript(refusing(concurrentLabels, 2, unlocked("labels")))).toMatchObject({
      state: "failed",
      problem: "a partial update of labels got HTTP 409, expected 200",
    });
    expect(await runScript(refusing(concurrentUrl, 2, unlocked("labels")))).toMatchObject({
      state: "failed",
      problem: "a partial update of publicUrl got HTTP 409, expected 200",
    });
  });

  it("leaves to omitted_fields_kept a field that one after the other does not hold either", async () => {
    // A server that drops what an update omits: of the two at once, and of the two one after the other, one is lost.
    const dropping = await run({
      metadata: WITH_URL,
      update: (file, body) => ({ ...file, labels: body.labels ?? [], publicUrl: body.publicUrl }),
    });
    expect(dropping).toMatchObject({ state: "passed", warnings: [] });
    // A server that never keeps these publicUrls, at once or not: the labels hold; no update was lost to the other.
    const ignoring = await run(
      storing(({ publicUrl, ...rest }) =>
        publicUrl === undefined || /\?t=\d+$/.test(String(publicUrl)) ? rest : { publicUrl, ...rest },
      ),
    );
    expect(ignoring).toMatchObject({ state: "passed", warnings: [] });
    const at = ignoring.sent.findIndex(concurrentLabels);
    expect(concurrentLabels(ignoring.sent[at + 3]!)).toBe(true);
  });

  it("reads on new connections while the update of both fields is in flight, up to three, and passes the file as it was or as it became", async () => {
    for (const apply of ["when answered", "on arrival"] as const) {
      const outcome = await runScript(holding(apply));
      expect(outcome).toMatchObject({ state: "passed", warnings: [] });
      const during = outcome.sent.findIndex(inFlight);
      expect(
        outcome.sent.slice(during + 1, during + 5).map((r) => [r.operationId, r.freshConnection ?? false]),
      ).toEqual([
        ["getFile", true],
        ["getFile", true],
        ["getFile", true],
        ["updateFile", false],
      ]);
    }
  });

  it("fails a read in flight that shows one field of each, quoting it, the file as it was and the update", async () => {
    const outcome = await runScript(holding("in steps"));
    const stamp = bodyOf(outcome.sent.find(inFlight)!).labels![0]!.slice("contract-in-flight-".length);
    const url = `https://contract-check.example.test/concurrent/doc-1?t=${stamp}`;
    const was = { labels: [`contract-concurrent-${stamp}`], publicUrl: url };
    const becomes = { labels: [`contract-in-flight-${stamp}`], publicUrl: `${url}&in-flight` };
    expect(outcome).toMatchObject({
      state: "failed",
      problem: `a read sent while the update ${JSON.stringify(becomes)} was in flight shows ${JSON.stringify({ labels: becomes.labels, publicUrl: url })}: neither the file as it was (${JSON.stringify(was)}) nor as it became, one field of each`,
    });
  });

  it("fails an update of both fields refused while the suite reads", async () => {
    expect(await runScript(holding("when answered", 409))).toMatchObject({
      state: "failed",
      problem: "an update of both fields got HTTP 409, expected 200",
    });
  });
});

describe("persistedProblem: whether a read shows an update", () => {
  const read = { labels: ["a", "b"], publicUrl: "https://cdn.test/a" };

  it("holds the labels sent: exactly passes, another order or duplicates collapsed warns, any other change fails", () => {
    expect(persistedProblem({ labels: ["a", "b"] }, read)).toBeUndefined();
    expect(persistedProblem({ labels: ["b", "a"] }, read)).toMatchObject({
      kind: "another order",
      warn: expect.stringMatching(
        /^after sending labels \["b","a"\], getFile shows \["a","b"\]: the same labels in another order /,
      ),
    });
    expect(persistedProblem({ labels: ["b", "a", "b"] }, read)).toMatchObject({ kind: "duplicates collapsed" });
    expect(persistedProblem({ labels: ["a", "b", "c"] }, read)).toEqual({
      fail: 'after sending labels ["a","b","c"], getFile shows ["a","b"]',
    });
    // Duplicates the server made up are no collapse: a change.
    expect(persistedProblem({ labels: ["a"] }, { labels: ["a", "a"] })).toEqual({
      fail: 'after sending labels ["a"], getFile shows ["a","a"]',
    });
    expect(persistedProblem({ labels: ["x"] }, { publicUrl: "u" })).toEqual({
      fail: 'after sending labels ["x"], getFile shows undefined',
    });
  });

  it("takes null for either field as not given: nothing to compare", () => {
    expect(
      persistedProblem({ labels: null, publicUrl: null }, { labels: ["a"], publicUrl: "https://cdn.test/a" }),
    ).toBeUndefined();
  });

  it("compares no labels after an update of publicUrl alone", () => {
    expect(persistedProblem({ publicUrl: "https://cdn.test/a" }, read)).toBeUndefined();
    expect(persistedProblem({ publicUrl: "https://cdn.test/b" }, read)).toEqual({
      fail: 'after sending publicUrl "https://cdn.test/b", getFile shows "https://cdn.test/a"',
    });
  });

  it("holds publicUrl only where the metadata carries one", () => {
    expect(persistedProblem({ publicUrl: "https://cdn.test/b" }, { labels: [] })).toBeUndefined();
    expect(persistedProblem({}, read)).toBeUndefined();
  });

  it("shows at most 200 characters of labels and 120 of a publicUrl", () => {
    const long = ["x".repeat(300)];
    expect(persistedProblem({ labels: long }, { labels: [] })).toEqual({
      fail: `after sending labels ${JSON.stringify(long).slice(0, 200)}, getFile shows []`,
    });
    expect(persistedProblem({ labels: [] }, { labels: long })).toEqual({
      fail: `after sending labels [], getFile shows ${JSON.stringify(long).slice(0, 200)}`,
    });
    const url = `https://cdn.test/${"u".repeat(300)}`;
    expect(persistedProblem({ publicUrl: url }, read)).toEqual({
      fail: `after sending publicUrl ${JSON.stringify(url).slice(0, 120)}, getFile shows "https://cdn.test/a"`,
    });
    expect(persistedProblem({ publicUrl: "https://cdn.test/a" }, { publicUrl: url })).toEqual({
      fail: `after sending publicUrl "https://cdn.test/a", getFile shows ${JSON.stringify(url).slice(0, 120)}`,
    });
  });
});
