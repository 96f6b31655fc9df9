import { describe, expect, it } from "vitest";
import {
  readFileState,
  readMetadata,
  restorableState,
  restoreFileState,
  stateOf,
  updateTarget,
  withRestore,
} from "../../../contract-tests/checks/file-state.ts";
import { metadataOf, spec } from "../../support/exchange-builder.ts";
import { fakeScenario, fileServer, type Script } from "../../support/fake-scenario.ts";

const scenario = (script: Script) => fakeScenario({ operationId: "updateFile", answer: script });
/** Runs `work`; resolves with what it threw (the fake's fail and skip throw), or undefined. */
const thrown = async (work: () => Promise<unknown>) =>
  work().then(
    () => undefined,
    (error: Error) => error.message,
  );

describe("file-state: reading the file back", () => {
  it("reads the whole metadata through getFile", async () => {
    const { scenario: s, outcome } = scenario(() => ({ json: metadataOf({ publicUrl: "u" }) }));
    expect(await readMetadata(s)).toEqual(metadataOf({ publicUrl: "u" }));
    expect(await readFileState(s)).toEqual({ labels: ["q3"], publicUrl: "u" });
    expect(outcome.sent.map((r) => r.operationId)).toEqual(["getFile", "getFile"]);
  });

  it("fails when the file cannot be read back: not 200, no body, labels that are no list", async () => {
    for (const [parts, status] of [
      [{ status: 422, json: metadataOf() }, 422],
      [{ text: "" }, 200],
      [{ json: metadataOf({ labels: "q3" }) }, 200],
    ] as const) {
      expect(await thrown(() => readMetadata(scenario(() => parts).scenario))).toBe(
        `could not read the file back (getFile answered ${status})`,
      );
    }
  });

  it("skips when the metadata is not UTF-8", async () => {
    const { scenario: s } = scenario(() => ({
      bytes: Buffer.from('{"labels":[],"name":"\xe9"}', "latin1"),
      contentType: "application/json",
    }));
    expect(await thrown(() => readMetadata(s))).toBe(
      "the metadata is not UTF-8, so what it holds cannot be read back (json_well_formed fails it)",
    );
  });

  it("stateOf keeps labels, and publicUrl only when it is a string", () => {
    expect(stateOf({ labels: ["a"], publicUrl: "u", size: 1 })).toEqual({ labels: ["a"], publicUrl: "u" });
    expect(stateOf({ labels: ["a"], publicUrl: null })).toEqual({ labels: ["a"] });
  });

  it("restorableState keeps a publicUrl when an update may send it back: any string (the service does not validate it), not null", () => {
    expect(restorableState({ spec }, { labels: ["a"], publicUrl: "https://cdn.test/a", size: 1 })).toEqual({
      labels: ["a"],
      publicUrl: "https://cdn.test/a",
    });
    expect(restorableState({ spec }, { labels: ["a"], publicUrl: "" })).toEqual({ labels: ["a"], publicUrl: "" });
    expect(restorableState({ spec }, { labels: ["a"], publicUrl: "www.example.com" })).toEqual({
      labels: ["a"],
      publicUrl: "www.example.com",
    });
    // null is "not given" in an update: a file without a publicUrl cannot get its null back, so none is set.
    expect(restorableState({ spec }, { labels: ["a"], publicUrl: null })).toEqual({ labels: ["a"] });
    expect(restorableState({ spec }, { labels: [] })).toEqual({ labels: [] });
  });

  it("restorableState asks the spec whether an update may send that publicUrl, and keeps it only then", () => {
    // A spec that takes only an https URL for publicUrl in an update.
    const httpsOnly = {
      validateRequestBody: (_operationId: string, _mediaType: string, body: { publicUrl?: unknown }) => ({
        valid: typeof body.publicUrl === "string" && body.publicUrl.startsWith("https://"),
      }),
    } as unknown as typeof spec;
    expect(restorableState({ spec: httpsOnly }, { labels: ["a"], publicUrl: "https://cdn.test/a" })).toEqual({
      labels: ["a"],
      publicUrl: "https://cdn.test/a",
    });
    expect(restorableState({ spec: httpsOnly }, { labels: ["a"], publicUrl: "www.example.com" })).toEqual({
      labels: ["a"],
    });
  });
});

describe("file-state: writing and putting back", () => {
  it("updateTarget sends the body and fails anything but 200, naming the update", async () => {
    const { scenario: s, outcome } = scenario((r) =>
      r.json && (r.json as { labels?: unknown }).labels ? {} : { status: 204 },
    );
    await updateTarget(s, { labels: ["a"] }, "the update");
    expect(outcome.sent).toEqual([
      { operationId: "updateFile", fileId: "doc-1", auth: "valid", json: { labels: ["a"] } },
    ]);
    expect(await thrown(() => updateTarget(s, {}, "an empty update"))).toBe(
      "an empty update got HTTP 204, expected 200",
    );
  });

  it("restoreFileState sends the state back as an essential update; refused, each field on its own, and says which the server refused", async () => {
    const { scenario: s, outcome } = scenario((r) =>
      (r.json as { publicUrl?: unknown }).publicUrl === undefined ? {} : { status: 422, json: {} },
    );
    expect(await restoreFileState(s, { labels: ["q3"], publicUrl: "u" })).toEqual(["publicUrl (HTTP 422)"]);
    expect(outcome.sent).toEqual([
      {
        operationId: "updateFile",
        fileId: "doc-1",
        auth: "valid",
        json: { labels: ["q3"], publicUrl: "u" },
        essential: true,
      },
      { operationId: "updateFile", fileId: "doc-1", auth: "valid", json: { labels: ["q3"] }, essential: true },
      { operationId: "updateFile", fileId: "doc-1", auth: "valid", json: { publicUrl: "u" }, essential: true },
    ]);
    expect(outcome.warnings).toEqual([
      'putting file doc-1 back: the server refused {"labels":["q3"],"publicUrl":"u"} (HTTP 422), so each field was sent on its own; refused: publicUrl (HTTP 422)',
    ]);
    const ok = scenario(() => ({}));
    expect(await restoreFileState(ok.scenario, { labels: [] })).toEqual([]);
    expect(ok.outcome.warnings).toEqual([]);
  });

  it("restoreFileState: one field refused is not sent again, and the warning says only what was refused", async () => {
    const { scenario: s, outcome } = scenario(() => ({ status: 422, json: {} }));
    expect(await restoreFileState(s, { labels: ["q3"] })).toEqual(["labels (HTTP 422)"]);
    expect(outcome.sent).toHaveLength(1);
    expect(outcome.warnings).toEqual(['putting file doc-1 back: the server refused {"labels":["q3"]} (HTTP 422)']);
  });

  it("restoreFileState: two fields refused together and each taken alone leave nothing refused, and the warning says each was taken", async () => {
    const { scenario: s, outcome } = scenario((r) =>
      Object.keys(r.json as object).length > 1 ? { status: 409, json: {} } : {},
    );
    expect(await restoreFileState(s, { labels: ["q3"], publicUrl: "u" })).toEqual([]);
    expect(outcome.sent.map((r) => r.json)).toEqual([
      { labels: ["q3"], publicUrl: "u" },
      { labels: ["q3"] },
      { publicUrl: "u" },
    ]);
    expect(outcome.warnings).toEqual([
      'putting file doc-1 back: the server refused {"labels":["q3"],"publicUrl":"u"} (HTTP 409), so each field was sent on its own; each was taken',
    ]);
  });

  it("restoreFileState: every field refused alone is named, in order", async () => {
    const { scenario: s, outcome } = scenario((r) => ({
      status: Object.keys(r.json as object).length > 1 ? 409 : 422,
      json: {},
    }));
    expect(await restoreFileState(s, { labels: ["q3"], publicUrl: "u" })).toEqual([
      "labels (HTTP 422)",
      "publicUrl (HTTP 422)",
    ]);
    expect(outcome.warnings).toEqual([
      'putting file doc-1 back: the server refused {"labels":["q3"],"publicUrl":"u"} (HTTP 409), so each field was sent on its own; refused: labels (HTTP 422), publicUrl (HTTP 422)',
    ]);
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
