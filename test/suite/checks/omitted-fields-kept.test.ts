import { describe, expect, it } from "vitest";
import { omittedFieldsKept } from "../../../contract-tests/checks/omitted-fields-kept.ts";
import { metadataOf } from "../../support/exchange-builder.ts";
import { fileServer, runCheck, type FileServerOptions } from "../../support/fake-scenario.ts";

const run = (server: FileServerOptions = {}) =>
  runCheck(omittedFieldsKept, { operationId: "updateFile", answer: fileServer(server) });
/** An update that replaces what the server keeps with only what was sent: omitted fields are lost. */
const replacing: FileServerOptions["update"] = (file, body) => ({
  ...file,
  labels: body.labels ?? [],
  publicUrl: body.publicUrl,
});

describe("omitted_fields_kept", () => {
  it("sets known labels, sends an update without labels ({}), reads back, and passes when they are kept; puts the file back", async () => {
    const server = fileServer();
    const outcome = await runCheck(omittedFieldsKept, { operationId: "updateFile", answer: server });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    expect(outcome.sent.map((r) => [r.operationId, r.json])).toEqual([
      ["getFile", undefined],
      ["updateFile", { labels: ["contract-keep-1", "contract-keep-2"] }],
      ["getFile", undefined],
      ["updateFile", {}],
      ["getFile", undefined],
      ["updateFile", { labels: null, publicUrl: null }],
      ["getFile", undefined],
      ["updateFile", { labels: ["q3"] }],
    ]);
    expect(server.file.labels).toEqual(["q3"]);
  });

  it("sends the publicUrl the file has, so that only labels are omitted", async () => {
    const outcome = await run({ metadata: metadataOf({ publicUrl: "https://cdn.test/a" }) });
    expect(outcome.sent[3]!.json).toEqual({ publicUrl: "https://cdn.test/a" });
  });

  it("fails an update that drops the labels it omits, showing the file before and after", async () => {
    const outcome = await run({ update: replacing });
    expect(outcome).toMatchObject({
      state: "failed",
      problem:
        'an update of {} changed the file from {"labels":["contract-keep-1","contract-keep-2"]} to {"labels":[]}',
    });
    // This server also lost the publicUrl on the first update, which sent none: the second sends it back.
    const withUrl = await run({ metadata: metadataOf({ publicUrl: "https://cdn.test/a" }), update: replacing });
    expect(withUrl.problem).toBe(
      'an update of {"publicUrl":"https://cdn.test/a"} changed the file from {"labels":["contract-keep-1","contract-keep-2"]} to {"labels":[],"publicUrl":"https://cdn.test/a"}',
    );
  });

  it('warns of an update of null for both fields that changes them (null is "not given"), and passes', async () => {
    // A server that stores what it is sent, null included: labels become null (read as none), publicUrl too.
    const applyingNull: FileServerOptions = {
      metadata: metadataOf({ publicUrl: "https://cdn.test/a" }),
      before: (r, _index, stored) => {
        if (r.operationId !== "updateFile" || (r.json as { labels?: unknown }).labels !== null) return undefined;
        stored.file = { ...stored.file, labels: [], publicUrl: null };
        return {};
      },
    };
    const server = fileServer(applyingNull);
    const outcome = await runCheck(omittedFieldsKept, { operationId: "updateFile", answer: server });
    expect(outcome).toMatchObject({ state: "passed" });
    expect(outcome.warnings).toEqual([
      'an update of {"labels":null,"publicUrl":null} (HTTP 200) changed labels ["contract-keep-1","contract-keep-2"], publicUrl "https://cdn.test/a" to labels [], publicUrl absent: null is "not given", and the field keeps its value (docs/decisions.md, D05)',
    ]);
    // Put back all the same.
    expect(server.file).toMatchObject({ labels: ["q3"], publicUrl: "https://cdn.test/a" });
  });

  it("leaves a refusal of null to positive_data_acceptance: no warning, no failure", async () => {
    const outcome = await run({
      before: (r) =>
        r.operationId === "updateFile" && (r.json as { labels?: unknown }).labels === null
          ? { status: 422, json: {} }
          : undefined,
    });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    // Refused and applied all the same: still not this check's to judge, so the file is not read for it.
    const refusedApplied = await run({
      metadata: metadataOf({ publicUrl: "https://cdn.test/a" }),
      before: (r, _index, stored) => {
        if (r.operationId !== "updateFile" || (r.json as { labels?: unknown }).labels !== null) return undefined;
        stored.file = { ...stored.file, labels: [], publicUrl: null };
        return { status: 422, json: {} };
      },
    });
    expect(refusedApplied).toMatchObject({ state: "passed", warnings: [] });
    const at = refusedApplied.sent.findIndex((r) => (r.json as { labels?: unknown } | undefined)?.labels === null);
    expect(refusedApplied.sent[at + 1]?.operationId).not.toBe("getFile");
  });

  it("fails when the labels cannot be set first", async () => {
    const outcome = await run({
      before: (r) => (r.operationId === "updateFile" && !r.essential ? { status: 422, json: {} } : undefined),
    });
    expect(outcome).toMatchObject({ state: "failed", problem: "setting labels got HTTP 422, expected 200" });
  });

  it("fails when the update omitting labels is refused", async () => {
    const outcome = await run({
      before: (r) =>
        r.operationId === "updateFile" && JSON.stringify(r.json) === "{}" ? { status: 400, json: {} } : undefined,
    });
    expect(outcome).toMatchObject({ state: "failed", problem: "an update omitting labels got HTTP 400, expected 200" });
  });
});
