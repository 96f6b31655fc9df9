import { describe, expect, it } from "vitest";
import { authRequired, UNAUTHORIZED_LABEL } from "../../../contract-tests/checks/auth-required.ts";
import { NEAR_MISSES } from "../../../contract-tests/inputs/keys.ts";
import { metadataOf } from "../../support/exchange-builder.ts";
import { fileServer, runCheck } from "../../support/fake-scenario.ts";

/** A server that lets the `lenient` modes through as if they held the key. */
const letsThrough = (...lenient: string[]) =>
  fileServer({ before: (request) => (lenient.includes(request.auth) ? { json: {} } : undefined) });

describe("auth_required", () => {
  it("sends no key, a wrong key and every near miss to a live server, and passes when each gets 401, with no warning", async () => {
    const outcome = await runCheck(authRequired, { operationId: "getFileDownloadUrl", answer: fileServer() });
    expect(outcome.state).toBe("passed");
    expect(outcome.warnings).toEqual([]);
    expect(outcome.sent.map((r) => r.auth)).toEqual(["none", "wrong", ...NEAR_MISSES]);
    expect(
      outcome.sent.every((r) => r.fileId === "doc-1" && r.operationId === "getFileDownloadUrl" && r.json === undefined),
    ).toBe(true);
  });

  it("sends only a request without a key to the mock, which checks no more", async () => {
    const outcome = await runCheck(authRequired, { operationId: "getFile", mode: "mock", answer: fileServer() });
    expect(outcome.sent.map((r) => r.auth)).toEqual(["none"]);
  });

  it("sends an update an empty body in a read-only run, which changes nothing should the server let it through", async () => {
    const outcome = await runCheck(authRequired, {
      operationId: "updateFile",
      writeChecks: false,
      answer: fileServer(),
    });
    expect(outcome.sent.map((r) => r.auth)).toEqual(["none", "wrong", "empty-token"]);
    expect(outcome.sent.every((r) => JSON.stringify(r.json) === "{}")).toBe(true);
  });

  it("with write checks, sends each unauthorized update a real change and reads the file back with the key; passes, touching nothing, when none was applied", async () => {
    const server = fileServer();
    const before = structuredClone(server.file);
    const outcome = await runCheck(authRequired, { operationId: "updateFile", answer: server });
    expect(outcome.state).toBe("passed");
    const updates = outcome.sent.filter((r) => r.operationId === "updateFile");
    expect(updates.map((r) => [r.auth, r.json])).toEqual(
      ["none", "wrong", "empty-token"].map((auth) => [
        auth,
        { labels: [...(before.labels as string[]), UNAUTHORIZED_LABEL] },
      ]),
    );
    expect(outcome.sent.filter((r) => r.operationId === "getFile").every((r) => r.auth === "valid")).toBe(true);
    expect(server.file).toEqual(before);
  });

  it("with write checks, fails an update applied without the key, though answered 401, and puts the file back", async () => {
    // The fault: the update is applied whatever key it carries, and answered as if it were refused.
    const server = fileServer({
      before: (request, _index, stored) => {
        if (request.operationId !== "updateFile" || request.auth === "valid") return undefined;
        stored.file = { ...stored.file, ...(request.json as object) };
        return { status: 401, json: { code: 401, message: "missing or wrong key" } };
      },
    });
    const before = structuredClone(server.file);
    const outcome = await runCheck(authRequired, { operationId: "updateFile", answer: server });
    expect(outcome.state).toBe("failed");
    expect(outcome.problem).toBe(
      `an update without Authorization (HTTP 401) was applied: getFile with the key shows the label "${UNAUTHORIZED_LABEL}" it added`,
    );
    expect(outcome.sent.at(-1)).toMatchObject({ operationId: "updateFile", auth: "valid", essential: true });
    expect(server.file).toEqual(before);
  });

  it("with write checks, only warns of an unauthorized update refused otherwise than with 401, saying it was not applied", async () => {
    const server = fileServer({
      before: (request) =>
        request.operationId === "updateFile" && request.auth !== "valid" ? { status: 403, json: {} } : undefined,
    });
    const outcome = await runCheck(authRequired, { operationId: "updateFile", answer: server });
    expect(outcome.state).toBe("passed");
    expect(outcome.warnings).toEqual([
      "updateFile answered HTTP 403 to a request without Authorization (expected 401); the update was not applied",
      "updateFile answered HTTP 403 to a request with a wrong key (expected 401); the update was not applied",
      "updateFile answered HTTP 403 to a request with an empty bearer token (expected 401); the update was not applied",
    ]);
    const refused = await runCheck(authRequired, { operationId: "updateFile", answer: fileServer() });
    expect(refused).toMatchObject({ state: "passed", warnings: [] });
  });

  it("with write checks, does not take a label the file already had for the one an unauthorized update added", async () => {
    // The empty string is a label a file may carry (a label class update_persisted sends).
    const server = fileServer({ metadata: metadataOf({ labels: ["", "a"] }) });
    const outcome = await runCheck(authRequired, { operationId: "updateFile", answer: server });
    expect(outcome).toMatchObject({ state: "passed", warnings: [] });
  });

  it("sends the mock an empty update without a key, even with write checks: it applies nothing", async () => {
    const outcome = await runCheck(authRequired, { operationId: "updateFile", mode: "mock", answer: fileServer() });
    expect(outcome.sent.map((r) => [r.operationId, r.auth, r.json])).toEqual([["updateFile", "none", {}]]);
  });

  it("fails the download at the first request that gets through, naming how it was sent and the status", async () => {
    const outcome = await runCheck(authRequired, {
      operationId: "getFileDownloadUrl",
      answer: letsThrough("case-changed"),
    });
    expect(outcome.state).toBe("failed");
    expect(outcome.problem).toBe("a request with the key's letters in the other case got HTTP 200, expected 401");
    expect(outcome.exchange?.status).toBe(200);
    expect(outcome.sent.at(-1)?.auth).toBe("case-changed");
  });

  // Where the key is the kit's assumption (a warning), three modes tell whether it is checked at all: the near misses
  // are the download's, so that a read-only run keeps room in its 100 requests for a gateway's 429s.
  it("only warns on getFile and updateFile, once for each request that got through, sends no near miss there, and goes on", async () => {
    const outcome = await runCheck(authRequired, {
      operationId: "getFile",
      answer: letsThrough("none", "empty-token"),
    });
    expect(outcome.state).toBe("passed");
    expect(outcome.warnings).toEqual([
      "getFile answered HTTP 200 to a request without Authorization (expected 401)",
      "getFile answered HTTP 200 to a request with an empty bearer token (expected 401)",
    ]);
    expect(outcome.sent.map((r) => r.auth)).toEqual(["none", "wrong", "empty-token"]);
  });
});
