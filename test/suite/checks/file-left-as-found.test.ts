import { describe, expect, it } from "vitest";
import { fileLeftAsFound } from "../../../contract-tests/checks/file-left-as-found.ts";
import { metadataOf } from "../../support/exchange-builder.ts";
import { fileServer, runCheck, type FileServerOptions } from "../../support/fake-scenario.ts";

const FOUND = metadataOf({ publicUrl: "https://cdn.test/a" });
/** file_left_as_found run against a file server whose file is now `server.metadata`, the run having found `found`. */
const run = (server: FileServerOptions, found: Record<string, unknown> | undefined) =>
  runCheck(fileLeftAsFound, {
    operationId: "updateFile",
    answer: fileServer(server),
    baseline: Promise.resolve({ metadata: found }),
  });
const PUT_BACK = `curl -i -X PUT 'http://server.test/studio/v1/library/files/doc-1' -H "Authorization: Bearer $FILE_LIBRARY_API_KEY" -H 'content-type: application/json' --data-raw '{"labels":["q3"],"publicUrl":"https://cdn.test/a"}'`;

describe("file_left_as_found", () => {
  it("is the check that runs last, on updateFile, in runs that may write and keep state", () => {
    expect(fileLeftAsFound).toMatchObject({
      name: "file_left_as_found",
      last: true,
      operations: ["updateFile"],
      requires: ["state", "writes"],
    });
    expect(fileLeftAsFound.description).toMatch(/^After the write checks, the file reads as the run found it/);
  });

  it("passes a file that reads as the run found it, after one read, with no warning", async () => {
    const outcome = await run({ metadata: { ...FOUND, size: 99 } }, FOUND);
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    expect(outcome.sent.map((r) => r.operationId)).toEqual(["getFile"]);
  });

  it("sends nothing when no write reached the file, or it could not be read before the first", async () => {
    const nothing = await runCheck(fileLeftAsFound, { operationId: "updateFile", answer: fileServer() });
    expect(nothing).toMatchObject({ state: "passed", sent: [] });
    for (const found of [undefined, { ...FOUND, labels: "q3" }])
      expect(await run({ metadata: metadataOf({ labels: ["changed"] }) }, found)).toMatchObject({
        state: "passed",
        sent: [],
      });
  });

  it("compares only what the run could put back: not a publicUrl it found null", async () => {
    const outcome = await run(
      { metadata: metadataOf({ publicUrl: "https://cdn.test/b" }) },
      metadataOf({ publicUrl: null }),
    );
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
  });

  it("fails a file left changed, puts back only the field that differs, and says it is now back, with the curl that puts it back", async () => {
    const server = fileServer({ metadata: { ...FOUND, labels: ["contract-check-a"] } });
    const outcome = await runCheck(fileLeftAsFound, {
      operationId: "updateFile",
      answer: server,
      baseline: Promise.resolve({ metadata: FOUND }),
    });
    expect(outcome).toMatchObject({
      state: "failed",
      problem: `the write checks left file "doc-1" changed although each put it back: labels is ["contract-check-a"] (was ["q3"]); the suite has now put it back, field by field. To put it back: ${PUT_BACK}`,
      warnings: [],
    });
    expect(outcome.sent.map((r) => [r.operationId, r.json])).toEqual([
      ["getFile", undefined],
      ["updateFile", { labels: ["q3"] }],
      ["getFile", undefined],
    ]);
    expect(outcome.sent[1]!.essential).toBe(true);
    expect(server.file).toEqual(FOUND);
  });

  it("fails a file the server will not put back, naming each field still left, an absent one as absent", async () => {
    const outcome = await run({ metadata: metadataOf({ labels: [] }), update: (file) => file }, FOUND);
    expect(outcome.problem).toBe(
      `the write checks left file "doc-1" changed although each put it back: labels is [] (was ["q3"]); publicUrl is absent (was "https://cdn.test/a"); still left: labels is [] (was ["q3"]); publicUrl is absent (was "https://cdn.test/a"). To put it back: ${PUT_BACK}`,
    );
    expect(outcome.sent.filter((r) => r.operationId === "updateFile").map((r) => r.json)).toEqual([
      { labels: ["q3"] },
      { publicUrl: "https://cdn.test/a" },
    ]);
  });

  it("shows a value of up to 160 characters whole, and a longer one cut with an ellipsis", async () => {
    const labels = (length: number) => ["x".repeat(length - 4)];
    const left = async (now: string[]) =>
      (await run({ metadata: { ...FOUND, labels: now }, update: (file) => file }, FOUND)).problem!.split("; ")[0];
    expect(await left(labels(160))).toBe(
      `the write checks left file "doc-1" changed although each put it back: labels is ${JSON.stringify(labels(160))} (was ["q3"])`,
    );
    expect(await left(labels(161))).toBe(
      `the write checks left file "doc-1" changed although each put it back: labels is ["${"x".repeat(157)}"… (was ["q3"])`,
    );
  });
});
