import { describe, expect, it } from "vitest";
import { metadataSizeMatchesContent } from "../../../contract-tests/checks/metadata-size-matches-content.ts";
import type { Followed } from "../../../contract-tests/http/exchange.ts";
import { NoAnswerError } from "../../../contract-tests/http/no-answer.ts";
import { metadataOf } from "../../support/exchange-builder.ts";
import { fileServer, runCheck, type FileServerOptions } from "../../support/fake-scenario.ts";

const URL_SENT = "https://files.test/doc-1?sig=1";
const run = (follow: () => Followed | Error, server: FileServerOptions = {}) =>
  runCheck(metadataSizeMatchesContent, { operationId: "getFileDownloadUrl", answer: fileServer(server), follow });

describe("metadata_size_matches_content", () => {
  it("reads the size, gets the URL, fetches it, and passes when it serves that many bytes, with no warning", async () => {
    const outcome = await run(() => ({ status: 200, bytes: 1234 }));
    expect(outcome).toMatchObject({ state: "passed", warnings: [], followed: [URL_SENT] });
    expect(outcome.sent.map((r) => `${r.operationId} ${r.accept ?? ""}`)).toEqual([
      "getFile ",
      "getFileDownloadUrl text/plain, application/json;q=0.9",
    ]);
  });

  it("fails a size that is not the content's, with the metadata as evidence", async () => {
    const outcome = await run(() => ({ status: 200, bytes: 1000 }));
    expect(outcome).toMatchObject({
      state: "failed",
      problem: "the metadata gives size 1234, but the signed URL serves 1000 bytes",
    });
    expect(outcome.exchange?.operationId).toBe("getFile");
  });

  it("warns, and leaves the size unchecked, when the content cannot be fetched, is refused or is over the read limit", async () => {
    const refused = new NoAnswerError("GET", URL_SENT, [
      { attempt: 1, reason: "connect ECONNREFUSED", afterMs: 2, closedByServer: false },
    ]);
    expect((await run(() => refused)).warnings).toEqual([
      `could not fetch the signed URL from here, so the size 1234 is unchecked: ${refused.message}`,
    ]);
    for (const status of [199, 300, 403])
      expect((await run(() => ({ status, bytes: 1234 }))).warnings).toEqual([
        `the signed URL answered HTTP ${status}, so the size 1234 is unchecked`,
      ]);
    const cut = await run(() => ({ status: 200, bytes: 1_048_576, cut: 1_048_576 }));
    expect(cut).toMatchObject({
      state: "passed",
      warnings: ["the content is over 1048576 bytes (FILE_LIBRARY_MAX_RESPONSE_BYTES), so the size 1234 is unchecked"],
    });
  });

  it("lets an error that is not a missing answer through", async () => {
    await expect(run(() => new TypeError("a bug"))).rejects.toThrow("a bug");
  });

  it("skips when there is no size to compare, or no URL to fetch", async () => {
    const noSize = await run(() => ({ status: 200, bytes: 1 }), { metadata: metadataOf({ size: "1234" }) });
    expect(noSize).toMatchObject({
      state: "skipped",
      problem: "the metadata has no size to compare (getFile answered 200)",
      followed: [],
    });
    const unreadable = await run(() => ({ status: 200, bytes: 1 }), {
      before: (r) => (r.operationId === "getFile" ? { status: 422, json: { size: 1 } } : undefined),
    });
    expect(unreadable).toMatchObject({
      state: "skipped",
      problem: "the metadata has no size to compare (getFile answered 422)",
    });
    const notJson = await run(() => ({ status: 200, bytes: 1 }), {
      before: (r) => (r.operationId === "getFile" ? { text: "size: 1234", contentType: "text/plain" } : undefined),
    });
    expect(notJson).toMatchObject({
      state: "skipped",
      problem: "the metadata has no size to compare (getFile answered 200)",
    });
    const noUrl = await run(() => ({ status: 200, bytes: 1 }), {
      download: { text: "nowhere", contentType: "text/plain" },
    });
    expect(noUrl).toMatchObject({ state: "skipped", problem: "the download answered no URL to fetch", followed: [] });
    const refusedDownload = await run(() => ({ status: 200, bytes: 1 }), {
      download: { status: 401, text: URL_SENT, contentType: "text/plain" },
    });
    expect(refusedDownload).toMatchObject({
      state: "skipped",
      problem: "the download answered no URL to fetch",
      followed: [],
    });
  });
});
