import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { FORMAT } from "../../../contract-tests/recording/format.ts";
import { harAuth, readRecording, type ReadExchange } from "../../../contract-tests/recording/read-recording.ts";

let scratch: string;
beforeAll(async () => (scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-read-recording-"))));
afterAll(() => rm(scratch, { recursive: true, force: true }));

// The File Library's paths, as the replay's router knows them.
const matches = (method: string, target: string) => {
  const path = target.split("?", 1)[0]!;
  if (/^\/studio\/v1\/library\/files\/[^/]+$/.test(path))
    return method === "GET" ? "getFile" : method === "PUT" ? "updateFile" : undefined;
  return /^\/studio\/v1\/library\/files\/[^/]+\/download$/.test(path) && method === "GET"
    ? "getFileDownloadUrl"
    : undefined;
};

const read = async (name: string, text: string) => {
  const file = path.join(scratch, name);
  await writeFile(file, text);
  const out: ReadExchange[] = [];
  for await (const one of readRecording(file, matches)) out.push(one);
  return out;
};

const header = (name: string, value: string) => ({ name, value });

describe("readRecording", () => {
  it("reads JSON Lines one exchange a line, blank lines skipped, each with its line number", async () => {
    const line = {
      format: FORMAT,
      seq: 1,
      method: "GET",
      target: "/studio/v1/library/files/doc-1",
      operation: "getFile",
      request: { auth: "key", body: null },
      response: { status: 200, headers: {}, body: null },
      findings: [],
    };
    const got = await read("ok.jsonl", `${JSON.stringify(line)}\n\n${JSON.stringify({ ...line, seq: 2 })}\r\n`);
    expect(got.map((g) => `${g.line} ${g.exchange.seq}`)).toEqual(["1 1", "3 2"]);
    expect(got[0]!.exchange.request.headers).toEqual({});
  });

  it.each([
    ["empty.jsonl", "\n", /holds no exchange/],
    ["bad.jsonl", "{not json\n", /bad\.jsonl:1: not JSON/],
    ["array.jsonl", "[1]\n", /array\.jsonl:1: not a JSON object/],
    [
      "old.jsonl",
      `${JSON.stringify({ format: "file-library-recording/0" })}\n`,
      /format "file-library-recording\/0", this replay reads file-library-recording\/1/,
    ],
    [
      "target.jsonl",
      `${JSON.stringify({ format: FORMAT, method: "GET", target: "http://x/y" })}\n`,
      /target\.jsonl:1: its target is missing or not of format/,
    ],
    [
      "auth.jsonl",
      `${JSON.stringify({ format: FORMAT, method: "GET", target: "/y", request: { auth: "maybe", body: null } })}\n`,
      /its request is missing/,
    ],
    [
      "status.jsonl",
      `${JSON.stringify({ format: FORMAT, method: "GET", target: "/y", request: { auth: "none", body: null }, response: { status: "200", body: null } })}\n`,
      /its response is missing/,
    ],
    ["bad.har", "{", /the HAR .*bad\.har" is not JSON/],
    ["nolog.har", "{}", /has no log\.entries/],
  ])("refuses %s with one line that names the file and what is wrong", async (name, text, message) => {
    await expect(read(name, text)).rejects.toThrow(message);
  });

  it("refuses a file that does not exist, or a folder", async () => {
    await expect(readRecording(scratch, matches).next()).rejects.toThrow(/is not a file/);
    const none = readRecording(path.join(scratch, "none.jsonl"), matches);
    await expect(none.next()).rejects.toThrow(/cannot read the recording .*none\.jsonl": no such file/);
  });

  it("takes a HAR's requests to the File Library's paths only, its origin and base path dropped, preflights and failed requests left out", async () => {
    const entry = (method: string, url: string, status: number, extra: Record<string, unknown> = {}) => ({
      startedDateTime: "2026-11-26T10:00:00.000Z",
      time: 12,
      request: {
        method,
        url,
        httpVersion: "http/1.1",
        headers: [header("Authorization", "Bearer secret-key-1"), header("Accept", "application/json")],
        queryString: [],
        cookies: [],
        headersSize: -1,
        bodySize: 0,
        ...((extra.request as object) ?? {}),
      },
      response: {
        status,
        statusText: "",
        httpVersion: "http/1.1",
        headers: [header("Content-Type", "application/json")],
        cookies: [],
        content: { size: 2, mimeType: "application/json", text: "{}" },
        redirectURL: "",
        headersSize: -1,
        bodySize: -1,
        ...((extra.response as object) ?? {}),
      },
      cache: {},
      timings: { send: 0, wait: 10, receive: 2 },
    });
    const har = {
      log: {
        version: "1.2",
        creator: { name: "WebInspector", version: "537.36" },
        pages: [],
        entries: [
          entry("GET", "http://localhost:5173/index.html", 200),
          entry("OPTIONS", "https://api.example.test/studio/v1/library/files/doc-1", 204, {
            request: { headers: [header("Access-Control-Request-Method", "PUT")] },
          }),
          entry("GET", "https://api.example.test/base/studio/v1/library/files/doc-1?x=1", 200),
          entry("PUT", "https://api.example.test/studio/v1/library/files/doc-1", 200, {
            request: {
              headers: [header("content-type", "application/json")],
              postData: { mimeType: "application/json", text: '{"labels":[]}' },
            },
            response: { content: { size: 0, mimeType: "x-unknown" } },
          }),
          entry("GET", "https://api.example.test/studio/v1/library/files/doc-1/download", 200, {
            response: {
              content: {
                size: 8,
                mimeType: "text/plain",
                text: Buffer.from("https://x").toString("base64"),
                encoding: "base64",
              },
            },
          }),
          entry("GET", "https://api.example.test/studio/v1/library/files/doc-1", 0),
          entry("GET", "https://api.example.test/studio/v1/library/files/doc-2", 401),
          entry("GET", "https://api.example.test/studio/v1/library/files/doc-2", 200, {
            response: { content: { size: 99 } },
          }),
        ],
      },
    };
    const got = await read("app.har", `\uFEFF${JSON.stringify(har)}`);
    expect(
      got.map(
        (g) =>
          `${g.line} ${g.exchange.method} ${g.exchange.target} ${g.exchange.operation} ${g.exchange.request.auth} ${g.exchange.response.status}`,
      ),
    ).toEqual([
      "3 GET /studio/v1/library/files/doc-1?x=1 getFile key 200",
      // No Authorization header, as a sanitized HAR has none: a 200 shows the app sent the key (harAuth).
      "4 PUT /studio/v1/library/files/doc-1 updateFile key 200",
      "5 GET /studio/v1/library/files/doc-1/download getFileDownloadUrl key 200",
      "7 GET /studio/v1/library/files/doc-2 getFile other 401",
      "8 GET /studio/v1/library/files/doc-2 getFile key 200",
    ]);
    expect(got[0]!.exchange.request.headers).toEqual({ accept: "application/json" });
    expect(got[1]!.exchange.request.body).toEqual({ text: '{"labels":[]}' });
    expect(got[1]!.exchange.response.body).toBeNull();
    expect(got[2]!.exchange.response.body).toEqual({ text: "https://x" });
    expect(got[4]!.exchange.response.body).toEqual({ elided: "the browser kept no text of it", bytes: 99 });
    // The key of a HAR is read, never kept: nothing of an exchange holds it.
    expect(JSON.stringify(got)).not.toContain("secret-key-1");
  });

  it.each([
    // Authorized, whatever the header: a success, or a 422 of an operation that needs the key.
    [undefined, 200, true, "key"],
    ["Bearer [redacted by the browser user]", 200, true, "key"],
    [undefined, 422, true, "key"],
    ["Bearer [redacted]", 204, false, "key"],
    // Refused: the header says which.
    [undefined, 401, true, "none"],
    ["Bearer [redacted by the browser user]", 401, true, "other"],
    ["Bearer k-1", 403, true, "other"],
    // Nothing shows the key was checked: the header alone.
    [undefined, 422, false, "none"],
    [undefined, 500, true, "none"],
    ["Bearer k-1", 429, true, "key"],
    ["Bearer [redacted by the browser user]", 500, true, "other"],
    ["Basic dXNlcg==", 400, true, "other"],
  ] as const)("harAuth(%j, %i, needs the key: %s) is %s", (authorization, status, requiresKey, auth) => {
    expect(harAuth(authorization, status, requiresKey)).toBe(auth);
  });
});
