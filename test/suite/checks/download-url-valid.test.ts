import { describe, expect, it } from "vitest";
import { downloadAnswerProblem, downloadUrlValid } from "../../../contract-tests/checks/download-url-valid.ts";
import { NoAnswerError } from "../../../contract-tests/http/no-answer.ts";
import { answer } from "../../support/exchange-builder.ts";
import { fileServer, runCheck } from "../../support/fake-scenario.ts";

const URL_SENT = "https://files.test/doc-1?sig=1";
const unreachable = () =>
  new NoAnswerError("GET", URL_SENT, [
    { attempt: 1, reason: "connect ECONNREFUSED", afterMs: 3, closedByServer: false },
  ]);

describe("download_url_valid", () => {
  it("asks for text or JSON, fetches the URL of a live server and passes a 2xx, with no warning", async () => {
    const outcome = await runCheck(downloadUrlValid, {
      operationId: "getFileDownloadUrl",
      answer: fileServer(),
      follow: () => ({ status: 204, bytes: 0 }),
    });
    expect(outcome).toMatchObject({ state: "passed", warnings: [], followed: [URL_SENT] });
    expect(outcome.sent).toEqual([
      {
        operationId: "getFileDownloadUrl",
        fileId: "doc-1",
        auth: "valid",
        accept: "text/plain, application/json;q=0.9",
      },
    ]);
  });

  it("passes any 2xx of the URL, 200 and 299 too", async () => {
    for (const status of [200, 299]) {
      expect(
        await runCheck(downloadUrlValid, {
          operationId: "getFileDownloadUrl",
          answer: fileServer(),
          follow: () => ({ status, bytes: 0 }),
        }),
      ).toMatchObject({ state: "passed", warnings: [] });
    }
  });

  it("fails a URL that does not download with a 2xx, saying its status", async () => {
    for (const status of [199, 300, 403]) {
      const outcome = await runCheck(downloadUrlValid, {
        operationId: "getFileDownloadUrl",
        answer: fileServer(),
        follow: () => ({ status, bytes: 0 }),
      });
      expect(outcome).toMatchObject({
        state: "failed",
        problem: `fetching the signed URL answered HTTP ${status}, expected 2xx`,
      });
      expect(outcome.exchange?.operationId).toBe("getFileDownloadUrl");
    }
  });

  it("only warns when the URL cannot be reached from here", async () => {
    const outcome = await runCheck(downloadUrlValid, {
      operationId: "getFileDownloadUrl",
      answer: fileServer(),
      follow: unreachable,
    });
    expect(outcome.state).toBe("passed");
    expect(outcome.warnings).toEqual([`could not fetch the signed URL from here: ${unreachable().message}`]);
  });

  it("lets an error that is not a missing answer through", async () => {
    await expect(
      runCheck(downloadUrlValid, {
        operationId: "getFileDownloadUrl",
        answer: fileServer(),
        follow: () => new TypeError("a bug"),
      }),
    ).rejects.toThrow("a bug");
  });

  it("does not fetch the mock's example URL", async () => {
    const outcome = await runCheck(downloadUrlValid, {
      operationId: "getFileDownloadUrl",
      mode: "mock",
      answer: fileServer(),
    });
    expect(outcome).toMatchObject({ state: "passed", followed: [] });
  });

  it("fails a body that is no URL, and a status other than 200, before fetching anything", async () => {
    const relative = await runCheck(downloadUrlValid, {
      operationId: "getFileDownloadUrl",
      answer: fileServer({ download: { text: "/files/doc-1", contentType: "text/plain" } }),
    });
    expect(relative).toMatchObject({ state: "failed", followed: [] });
    expect(relative.problem).toBe("the body is not an absolute URL");
    const refused = await runCheck(downloadUrlValid, {
      operationId: "getFileDownloadUrl",
      answer: () => ({ status: 422, json: { message: "no" } }),
    });
    expect(refused).toMatchObject({
      state: "failed",
      problem: "the download got HTTP 422, expected 200",
      followed: [],
    });
  });

  it("downloadAnswerProblem: reads a URL as text or as a JSON string", () => {
    expect(
      downloadAnswerProblem(
        answer({ operationId: "getFileDownloadUrl", text: `${URL_SENT}\n`, contentType: "text/plain" }),
      ),
    ).toEqual({ url: URL_SENT });
    expect(downloadAnswerProblem(answer({ operationId: "getFileDownloadUrl", json: URL_SENT }))).toEqual({
      url: URL_SENT,
    });
  });
});
