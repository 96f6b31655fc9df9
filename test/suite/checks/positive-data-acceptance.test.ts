import { describe, expect, it } from "vitest";
import { positiveDataAcceptance } from "../../../contract-tests/checks/positive-data-acceptance.ts";
import { metadataOf } from "../../support/exchange-builder.ts";
import { fileServer, runCheck, type FileServerOptions, type SentRequest } from "../../support/fake-scenario.ts";

const refusing = (operationId: string, accept?: string): FileServerOptions => ({
  before: (r) =>
    r.operationId === operationId && (accept === undefined || r.accept === accept)
      ? { status: 422, json: { message: "no" } }
      : undefined,
});

describe("positive_data_acceptance", () => {
  it("reads the file once, and passes a 200, with no warning", async () => {
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "getFile", answer: fileServer() });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    expect(outcome.sent).toEqual([{ operationId: "getFile", fileId: "doc-1", auth: "valid" }]);
  });

  it("fails a valid read that does not get 200", async () => {
    const outcome = await runCheck(positiveDataAcceptance, {
      operationId: "getFile",
      answer: fileServer(refusing("getFile")),
    });
    expect(outcome).toMatchObject({ state: "failed", problem: "a valid request got HTTP 422, expected 200" });
    expect(outcome.exchange?.status).toBe(422);
  });

  it("asks for the download as text and as JSON, and fails the one refused, naming its Accept", async () => {
    const passed = await runCheck(positiveDataAcceptance, { operationId: "getFileDownloadUrl", answer: fileServer() });
    expect(passed.sent.map((r) => r.accept)).toEqual(["text/plain", "application/json"]);
    const outcome = await runCheck(positiveDataAcceptance, {
      operationId: "getFileDownloadUrl",
      answer: fileServer(refusing("getFileDownloadUrl", "application/json")),
    });
    expect(outcome).toMatchObject({
      state: "failed",
      problem: "a valid request (Accept: application/json) got HTTP 422, expected 200",
    });
  });

  // The runner skips it in a read-only run, as it says in the catalogue (the run's own tests read the skip's reason).
  it("needs writes on the update alone", () => {
    expect(positiveDataAcceptance.requiresOn).toEqual({ updateFile: ["writes"] });
    expect(positiveDataAcceptance.requires).toBeUndefined();
  });

  it("sends the official SDKs' update bodies whatever the seed: without a publicUrl to put back, those that leave it as it is", async () => {
    const server = fileServer();
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "updateFile", answer: server, fuzzRuns: 1 });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    const labels = ["q3", "contract-check-sdk"];
    expect(outcome.sent.slice(1, 5).map((r) => r.json)).toEqual([
      { fileId: "doc-1", labels },
      { fileId: "doc-1", labels, publicUrl: null },
      { publicUrl: null, labels },
      { publicUrl: null, labels: null },
    ]);
    expect(outcome.records).toEqual(Array(4).fill("update bodies of the official SDKs"));
    expect(server.file.labels).toEqual(["q3"]);
  });

  it("sends the SDKs' bodies the file's first label alone beside its own, however many the file has", async () => {
    const server = fileServer({ metadata: metadataOf({ labels: ["q3", "q4", "q5"] }) });
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "updateFile", answer: server, fuzzRuns: 1 });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    expect(outcome.sent[1]?.json).toEqual({ fileId: "doc-1", labels: ["q3", "contract-check-sdk"] });
    expect(server.file.labels).toEqual(["q3", "q4", "q5"]);
  });

  it("sends the SDKs' bodies that set a publicUrl, and the documented www.example.com, when the file has one to put back", async () => {
    const server = fileServer({ metadata: metadataOf({ publicUrl: "https://cdn.test/a" }) });
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "updateFile", answer: server, fuzzRuns: 1 });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    const labels = ["q3", "contract-check-sdk"];
    const publicUrl = "https://cdn.test/a#contract-check-sdk";
    expect(outcome.sent.slice(5, 9).map((r) => r.json)).toEqual([
      { fileId: "doc-1", labels, publicUrl },
      { fileId: "doc-1", labels: null, publicUrl },
      { publicUrl: "www.example.com", labels: null },
      { publicUrl: "www.example.com" },
    ]);
    expect(server.file).toMatchObject({ labels: ["q3"], publicUrl: "https://cdn.test/a" });
  });

  it("fails a server that refuses the TypeScript SDK's fileId member, or null, or answers one of the bodies with a 5xx", async () => {
    const refusing = (when: (json: Record<string, unknown>) => boolean, status = 422): FileServerOptions => ({
      before: (r) =>
        r.operationId === "updateFile" && !r.essential && when(r.json as Record<string, unknown>)
          ? { status, json: { message: "no" } }
          : undefined,
    });
    const strict = await runCheck(positiveDataAcceptance, {
      operationId: "updateFile",
      answer: fileServer(refusing((json) => "fileId" in json)),
    });
    expect(strict).toMatchObject({
      state: "failed",
      problem: `the TypeScript SDK's files.update({ fileId, labels }) sends {"fileId":"doc-1","labels":["q3","contract-check-sdk"]}; it got HTTP 422, expected 200`,
    });
    const noNull = await runCheck(positiveDataAcceptance, {
      operationId: "updateFile",
      answer: fileServer(refusing((json) => json.publicUrl === null)),
    });
    expect(noNull.problem).toMatch(
      /^the TypeScript SDK's files\.update\(\{ fileId, labels, publicUrl: null \}\) sends .*; it got HTTP 422, expected 200$/,
    );
    const broken = await runCheck(positiveDataAcceptance, {
      operationId: "updateFile",
      answer: fileServer(refusing((json) => json.labels === null, 500)),
    });
    expect(broken.problem).toMatch(
      /^the Python SDK's files\.update\(id, public_url=None, labels=None\) after 2\.4 sends \{"publicUrl":null,"labels":null\}; it got HTTP 500, expected 200$/,
    );
    const noScheme = await runCheck(positiveDataAcceptance, {
      operationId: "updateFile",
      answer: fileServer({
        metadata: metadataOf({ publicUrl: "https://cdn.test/a" }),
        ...refusing((json) => json.publicUrl === "www.example.com"),
      }),
    });
    expect(noScheme.problem).toMatch(/www\.example\.com.*; it got HTTP 422, expected 200$/);
  });

  it("then sends generated valid update bodies, a publicUrl string only when the file has one to put back, and puts the file back", async () => {
    const server = fileServer();
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "updateFile", answer: server, fuzzRuns: 20 });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
    const generated = outcome.sent.slice(5, -1);
    expect(generated).toHaveLength(20);
    // null for publicUrl ("not given") changes nothing: it may come; a string may not.
    expect(
      generated.every(
        (r) => r.operationId === "updateFile" && typeof (r.json as { publicUrl?: unknown }).publicUrl !== "string",
      ),
    ).toBe(true);
    expect(generated.some((r) => (r.json as { publicUrl?: unknown }).publicUrl === null)).toBe(true);
    // Every field is optional: some bodies send labels, some do not.
    expect(generated.some((r) => "labels" in (r.json as object))).toBe(true);
    expect(generated.some((r) => !("labels" in (r.json as object)))).toBe(true);
    expect(outcome.sent.at(-1)).toMatchObject({ operationId: "updateFile", json: { labels: ["q3"] }, essential: true });
    expect(server.file.labels).toEqual(["q3"]);
  });

  it("generates publicUrl too when the file has one", async () => {
    const server = fileServer({ metadata: metadataOf({ publicUrl: "https://cdn.test/a" }) });
    const outcome = await runCheck(positiveDataAcceptance, { operationId: "updateFile", answer: server, fuzzRuns: 20 });
    expect(
      outcome.sent.slice(9, -1).some((r) => typeof (r.json as { publicUrl?: unknown }).publicUrl === "string"),
    ).toBe(true);
    expect(outcome.sent.at(-1)?.json).toEqual({ labels: ["q3"], publicUrl: "https://cdn.test/a" });
  });

  it("fails a valid update body that is refused", async () => {
    const generatedOnly = (r: SentRequest, index: number) =>
      r.operationId === "updateFile" && !r.essential && index > 4;
    const outcome = await runCheck(positiveDataAcceptance, {
      operationId: "updateFile",
      answer: fileServer({ before: (r, index) => (generatedOnly(r, index) ? { status: 400, json: {} } : undefined) }),
    });
    expect(outcome).toMatchObject({ state: "failed", problem: "a valid update body got HTTP 400, expected 200" });
    expect(outcome.sent.at(-1)?.essential).toBe(true);
  });
});
