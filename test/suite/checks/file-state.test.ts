import { describe, expect, it } from "vitest";
import { readFileState, readMetadata, restoreFileState, stateOf, updateTarget, withRestore } from "../../../contract-tests/checks/file-state.ts";
import { metadataOf } from "../../support/exchange-builder.ts";
import { fakeScenario, fileServer, type Script } from "../../support/fake-scenario.ts";

const scenario = (script: Script) => fakeScenario({ operationId: "updateFile", answer: script });
/** Runs `work`; resolves with what it threw (the fake's fail and skip throw), or undefined. */
const thrown = async (work: () => Promise<unknown>) => work().then(() => undefined, (error: Error) => error.message);

describe("file-state: reading the file back", () => {
  it("reads the whole metadata through getFile", async () => {
    const { scenario: s, outcome } = scenario(() => ({ json: metadataOf({ publicUrl: "u" }) }));
    expect(await readMetadata(s)).toEqual(metadataOf({ publicUrl: "u" }));
    expect(await readFileState(s)).toEqual({ labels: ["q3"], publicUrl: "u" });
    expect(outcome.sent.map((r) => r.operationId)).toEqual(["getFile", "getFile"]);
  });

  it("fails when the file cannot be read back: not 200, no body, labels that are no list", async () => {
    for (const [parts, status] of [[{ status: 422, json: metadataOf() }, 422], [{ text: "" }, 200], [{ json: metadataOf({ labels: "q3" }) }, 200]] as const) {
      expect(await thrown(() => readMetadata(scenario(() => parts).scenario))).toBe(`could not read the file back (getFile answered ${status})`);
    }
  });

  it("skips when the metadata is not UTF-8", async () => {
    const { scenario: s } = scenario(() => ({ bytes: Buffer.from('{"labels":[],"name":"\xe9"}', "latin1"), contentType: "application/json" }));
    expect(await thrown(() => readMetadata(s))).toBe("the metadata is not UTF-8, so what it holds cannot be read back (json_well_formed fails it)");
  });

  it("stateOf keeps labels, and publicUrl only when it is a string", () => {
    expect(stateOf({ labels: ["a"], publicUrl: "u", size: 1 })).toEqual({ labels: ["a"], publicUrl: "u" });
    expect(stateOf({ labels: ["a"], publicUrl: null })).toEqual({ labels: ["a"] });
  });
});

describe("file-state: writing and putting back", () => {
  it("updateTarget sends the body and fails anything but 200, naming the update", async () => {
    const { scenario: s, outcome } = scenario((r) => (r.json && (r.json as { labels?: unknown }).labels ? {} : { status: 204 }));
    await updateTarget(s, { labels: ["a"] }, "the update");
    expect(outcome.sent).toEqual([{ operationId: "updateFile", fileId: "doc-1", auth: "valid", json: { labels: ["a"] } }]);
    expect(await thrown(() => updateTarget(s, {}, "an empty update"))).toBe("an empty update got HTTP 204, expected 200");
  });

  it("restoreFileState sends the state back as an essential update; refused, each field on its own, and says which the server refused", async () => {
    const { scenario: s, outcome } = scenario((r) => ((r.json as { publicUrl?: unknown }).publicUrl === undefined ? {} : { status: 422, json: {} }));
    expect(await restoreFileState(s, { labels: ["q3"], publicUrl: "u" })).toEqual(["publicUrl (HTTP 422)"]);
    expect(outcome.sent).toEqual([
      { operationId: "updateFile", fileId: "doc-1", auth: "valid", json: { labels: ["q3"], publicUrl: "u" }, essential: true },
      { operationId: "updateFile", fileId: "doc-1", auth: "valid", json: { labels: ["q3"] }, essential: true },
      { operationId: "updateFile", fileId: "doc-1", auth: "valid", json: { publicUrl: "u" }, essential: true },
    ]);
    expect(outcome.warnings).toEqual(['putting file doc-1 back: the server refused {"labels":["q3"],"publicUrl":"u"} (HTTP 422), so each field was sent on its own; refused: publicUrl (HTTP 422)']);
    const ok = scenario(() => ({}));
    await restoreFileState(ok.scenario, { labels: [] });
    expect(ok.outcome.warnings).toEqual([]);
  });

  it("withRestore gives the work the state and the whole metadata, and puts the file back even when the work fails", async () => {
    const server = fileServer();
    const { scenario: s, outcome } = scenario(server);
    let seen: unknown;
    const failed = await thrown(() =>
      withRestore(s, async (before, metadata) => {
        seen = { before, metadata };
        await updateTarget(s, { labels: ["changed"] }, "the update");
        s.fail("the work failed");
      }),
    );
    expect(failed).toBe("the work failed");
    expect(seen).toEqual({ before: { labels: ["q3"] }, metadata: metadataOf() });
    expect(outcome.sent.at(-1)).toMatchObject({ json: { labels: ["q3"] }, essential: true });
    expect(server.file.labels).toEqual(["q3"]);
  });
});
