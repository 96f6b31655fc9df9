import { describe, expect, it } from "vitest";
import { persistedProblem, updatePersisted } from "../../../contract-tests/checks/update-persisted.ts";
import { labelClassesList } from "../../../contract-tests/inputs/label-classes.ts";
import { metadataOf } from "../../support/exchange-builder.ts";
import { fileServer, runCheck, type FileServerOptions } from "../../support/fake-scenario.ts";

const WITH_URL = metadataOf({ publicUrl: "https://cdn.test/a" });
const run = (server: FileServerOptions = {}) => runCheck(updatePersisted, { operationId: "updateFile", answer: fileServer(server) });
/** A server that stores what `change` makes of each update. */
const storing = (change: (body: Record<string, unknown>) => Record<string, unknown>, metadata = WITH_URL): FileServerOptions => ({ metadata, update: (file, body) => ({ ...file, ...change(body) }) });

describe("update_persisted", () => {
  it("updates labels in order, every label class, [], then a long publicUrl, reading back after each; puts the file back; no warning", async () => {
    const server = fileServer({ metadata: WITH_URL });
    const outcome = await runCheck(updatePersisted, { operationId: "updateFile", answer: server });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    // Each update is read back twice: on the kept-alive connection, then on a new one.
    expect(outcome.sent.slice(0, 4).map((r) => [r.operationId, r.freshConnection ?? false])).toEqual([["getFile", false], ["updateFile", false], ["getFile", false], ["getFile", true]]);
    const bodies = outcome.sent.filter((r) => r.operationId === "updateFile").map((r) => r.json as Record<string, unknown>);
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
      expect.arrayContaining(["labels: duplicates, read back", "labels: a list of 60 items, read back", "publicUrl: 2,048 characters, read back", "two partial updates at once (labels, publicUrl), read back"]),
    );
    expect(server.file).toEqual(WITH_URL);
  });

  it("sends no publicUrl when the file's metadata has none", async () => {
    const outcome = await run();
    expect(outcome.state).toBe("passed");
    expect(outcome.sent.filter((r) => r.operationId === "updateFile" && "publicUrl" in (r.json as object))).toEqual([]);
    expect(outcome.records).not.toContain("publicUrl: 2,048 characters, read back");
  });

  it("fails labels that come back in another order", async () => {
    const outcome = await run(storing((body) => ({ labels: [...(body.labels as string[])].sort() })));
    expect(outcome).toMatchObject({
      state: "failed",
      problem: 'after sending labels ["contract-check-b","contract-check-a","q3"], getFile shows ["contract-check-a","contract-check-b","q3"]',
    });
  });

  it("fails labels normalized on the way, naming the first that differ", async () => {
    const trimmed = (labels: string[]) => (labels.length > 3 ? labels.map((l) => l.trim()) : labels);
    const outcome = await run(storing((body) => ({ labels: trimmed(body.labels as string[]) })));
    expect(outcome).toMatchObject({ state: "failed", problem: 'labels did not come back exactly as sent: 60 sent, 60 read back; the first that differ: "  padded  ", "\\ttabbed", " ,", " both ", "\\n newline at the start"' });
    const dropped = await run(storing((body) => ({ labels: [...new Set(body.labels as string[])] })));
    const firstFive = ["dup", "  padded  ", "\ttabbed", "caf\u00e9", "cafe\u0301"].map((label) => JSON.stringify(label)).join(", ");
    expect(dropped.problem).toBe(`labels did not come back exactly as sent: 60 sent, 59 read back; the first that differ: ${firstFive}`);
    const cut = await run(storing((body) => ({ labels: (body.labels as string[]).map((label) => label.slice(0, 255)) })));
    expect(cut.problem).toBe(`labels did not come back exactly as sent: 60 sent, 60 read back; the first that differ: "${"l".repeat(40)}"`);
  });

  it("fails labels: [] that does not clear the list", async () => {
    const outcome = await run(storing((body) => ((body.labels as string[]).length === 0 ? {} : { labels: body.labels })));
    expect(outcome.state).toBe("failed");
    expect(outcome.problem).toMatch(/^after sending labels: \[\], getFile shows \["dup","dup",.*"contract-label-\d+"\]: \[\] must clear the list$/);
  });

  it("fails a publicUrl cut short, saying it is the start of the one sent", async () => {
    const outcome = await run(storing((body) => (typeof body.publicUrl === "string" ? { publicUrl: body.publicUrl.slice(0, 255) } : body)));
    expect(outcome.state).toBe("failed");
    expect(outcome.problem).toMatch(/^after sending a publicUrl of 2048 characters \(https:\/\/contract-check\.example\.test\/doc-1\?v=\d{13}&to…\), getFile shows a publicUrl of 255 characters, the start of the one sent$/);
  });

  it("fails a publicUrl ignored, or dropped", async () => {
    const ignored = await run(storing((body) => ("labels" in body ? { labels: body.labels } : {})));
    expect(ignored.problem).toMatch(/, getFile shows a publicUrl of 18 characters$/);
    const dropped = await run({ metadata: WITH_URL, update: (file, body) => ("publicUrl" in body ? { ...file, publicUrl: undefined } : { ...file, ...body }) });
    expect(dropped.problem).toMatch(/, getFile shows undefined$/);
  });

  it("puts only the file's first label after its own two, so that their order shows", async () => {
    const outcome = await run({ metadata: metadataOf({ labels: ["q3", "q4"] }) });
    expect(outcome.sent[1]!.json).toEqual({ labels: ["contract-check-b", "contract-check-a", "q3"] });
  });

  it("names a refused update by at most 200 characters of its body", async () => {
    // The label classes' update: after the first read, the first update and its two reads (one on a new connection).
    const outcome = await run({ before: (r, index) => (index === 4 ? { status: 422, json: {} } : undefined) });
    expect(outcome.problem).toBe(`the update ${JSON.stringify({ labels: labelClassesList() }).slice(0, 200)} got HTTP 422, expected 200`);
  });

  it("fails an update that is refused, naming it", async () => {
    const outcome = await run({ before: (r) => (r.operationId === "updateFile" && !r.essential ? { status: 422, json: {} } : undefined) });
    expect(outcome).toMatchObject({ state: "failed", problem: 'the update {"labels":["contract-check-b","contract-check-a","q3"]} got HTTP 422, expected 200' });
  });
});

describe("persistedProblem: whether a read shows an update", () => {
  const read = { labels: ["a", "b"], publicUrl: "https://cdn.test/a" };

  it("holds the labels sent, exactly", () => {
    expect(persistedProblem({ labels: ["a", "b"] }, read)).toBeUndefined();
    expect(persistedProblem({ labels: ["b", "a"] }, read)).toBe('after sending labels ["b","a"], getFile shows ["a","b"]');
    expect(persistedProblem({ labels: ["x"] }, { publicUrl: "u" })).toBe('after sending labels ["x"], getFile shows undefined');
  });

  it("compares no labels after an update of publicUrl alone", () => {
    expect(persistedProblem({ publicUrl: "https://cdn.test/a" }, read)).toBeUndefined();
    expect(persistedProblem({ publicUrl: "https://cdn.test/b" }, read)).toBe('after sending publicUrl "https://cdn.test/b", getFile shows "https://cdn.test/a"');
  });

  it("holds publicUrl only where the metadata carries one", () => {
    expect(persistedProblem({ publicUrl: "https://cdn.test/b" }, { labels: [] })).toBeUndefined();
    expect(persistedProblem({}, read)).toBeUndefined();
  });

  it("shows at most 200 characters of labels and 120 of a publicUrl", () => {
    const long = ["x".repeat(300)];
    expect(persistedProblem({ labels: long }, { labels: [] })).toBe(`after sending labels ${JSON.stringify(long).slice(0, 200)}, getFile shows []`);
    expect(persistedProblem({ labels: [] }, { labels: long })).toBe(`after sending labels [], getFile shows ${JSON.stringify(long).slice(0, 200)}`);
    const url = `https://cdn.test/${"u".repeat(300)}`;
    expect(persistedProblem({ publicUrl: url }, read)).toBe(`after sending publicUrl ${JSON.stringify(url).slice(0, 120)}, getFile shows "https://cdn.test/a"`);
    expect(persistedProblem({ publicUrl: "https://cdn.test/a" }, { publicUrl: url })).toBe(`after sending publicUrl "https://cdn.test/a", getFile shows ${JSON.stringify(url).slice(0, 120)}`);
  });
});
