import { describe, expect, it } from "vitest";
import { consumerProblems } from "../../../contract-tests/recording/consumer-contract.ts";
import type { RecordedExchange } from "../../../contract-tests/recording/format.ts";

const METADATA = {
  id: "doc-1",
  name: "report.txt",
  size: 5,
  labels: ["a"],
  owner: { id: "u1", teams: [{ name: "x" }] },
};
const got = (status: number, body: unknown, text = JSON.stringify(body)): RecordedExchange["response"] => ({
  status,
  headers: {},
  body: body === undefined ? null : { text },
});
const answer = (status: number, body: unknown) => ({
  status,
  text: typeof body === "string" ? body : JSON.stringify(body),
});

describe("consumerProblems", () => {
  it("holds an answer with the same status and every member the app got, of the same JSON type, whatever the values and extra members", () => {
    expect(
      consumerProblems(
        "getFile",
        got(200, METADATA),
        answer(200, {
          ...METADATA,
          size: 9,
          name: "other",
          labels: [],
          extra: true,
          owner: { id: "u2", teams: [{ name: "y", more: 1 }] },
        }),
      ),
    ).toEqual([]);
  });

  it("breaks on another status, first and alone", () => {
    expect(consumerProblems("getFile", got(422, { code: "file_not_found" }), answer(404, { other: 1 }))).toEqual([
      "the app got HTTP 422; the deployment answers HTTP 404",
    ]);
  });

  it("names each member whose type changed or that is gone, at any depth, an array's first item for its items", () => {
    const now = { ...METADATA, size: "5", labels: [1], owner: { teams: [{ name: null }] } } as Record<string, unknown>;
    delete now.name;
    expect(consumerProblems("getFile", got(200, METADATA), answer(200, now))).toEqual([
      "$.name is missing: the app got a string there",
      '$.size was a number (5) for the app; the deployment sends a string ("5")',
      '$.labels[0] was a string ("a") for the app; the deployment sends a number (1)',
      "$.owner.id is missing: the app got a string there",
      '$.owner.teams[0].name was a string ("x") for the app; the deployment sends null (null)',
    ]);
  });

  it("names members whose names are no identifiers in brackets, and an object that became an array", () => {
    expect(consumerProblems("getFile", got(200, { "a-b": 1, o: {} }), answer(200, { o: [] }))).toEqual([
      '$["a-b"] is missing: the app got a number there',
      "$.o was an object ({}) for the app; the deployment sends an array ([])",
    ]);
  });

  it("an answer that is no longer JSON breaks; a body the app got that was not JSON, or not recorded, holds by its status alone", () => {
    expect(consumerProblems("getFile", got(200, METADATA), answer(200, "<html>"))).toEqual([
      'the app got JSON; the deployment answers "<html>", which is not JSON',
    ]);
    expect(consumerProblems("getFile", got(200, "x", "plain text"), answer(200, "{}"))).toEqual([]);
    expect(
      consumerProblems(
        "getFile",
        { status: 200, headers: {}, body: { elided: "over 65536 bytes", bytes: 70_000 } },
        answer(200, "<html>"),
      ),
    ).toEqual([]);
  });

  it("the download: a URL as text or as a JSON string holds; anything else that is no absolute http(s) URL breaks", () => {
    const url = "https://files.example.test/doc-1?sig=abc";
    const download = got(200, url, url);
    expect(consumerProblems("getFileDownloadUrl", download, answer(200, url))).toEqual([]);
    expect(consumerProblems("getFileDownloadUrl", download, answer(200, JSON.stringify(` ${url}\n`)))).toEqual([]);
    expect(consumerProblems("getFileDownloadUrl", download, answer(200, "/relative/doc-1"))).toEqual([
      'the app got a download URL; the deployment answers "/relative/doc-1", which is no absolute http(s) URL',
    ]);
    expect(consumerProblems("getFileDownloadUrl", download, answer(200, JSON.stringify({ url })))).toHaveLength(1);
    expect(consumerProblems("getFileDownloadUrl", download, { status: 200, text: undefined })).toEqual([
      "the app got a download URL; the deployment answers a body it could not read, which is no absolute http(s) URL",
    ]);
  });
});
