// covers: contract-tests/pact/export-pact.ts, contract-tests/pact/interaction-names.ts, contract-tests/pact/type-matchers.ts
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { defaultSpecFile } from "../../../contract-tests/locations.ts";
import {
  API_KEY_PLACEHOLDER,
  ExportError,
  exportPact,
  type PactVersion,
} from "../../../contract-tests/pact/export-pact.ts";
import { DOWNLOAD_URL_REGEX } from "../../../contract-tests/pact/type-matchers.ts";
import { FORMAT, type RecordedExchange } from "../../../contract-tests/recording/format.ts";
import { loadSuiteSpec } from "../../../contract-tests/run/spec.ts";
import { ensureBundle } from "../../support/sandbox.ts";

const FILES = "/studio/v1/library/files";
const KEY = "exp-Key_4c1!zz9";
const METADATA = {
  id: "doc-1",
  name: "report.txt",
  size: 5,
  created_at: "2026-01-02T03:04:05Z",
  labels: ["a", "b"],
  publicUrl: "https://cdn.example.test/report.txt",
};

let scratch: string;
let spec: ReturnType<typeof loadSuiteSpec>;
beforeAll(async () => {
  ensureBundle();
  spec = loadSuiteSpec(defaultSpecFile);
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-export-pact-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** One exchange of a recording; `over` replaces its parts. */
function exchange(
  seq: number,
  method: string,
  target: string,
  status: number,
  over: {
    auth?: RecordedExchange["request"]["auth"];
    requestBody?: unknown;
    response?: { contentType?: string; text?: string };
  } = {},
): RecordedExchange {
  const { contentType = "application/json", text = JSON.stringify(METADATA) } = over.response ?? {};
  return {
    format: FORMAT,
    seq,
    at: "2026-11-27T10:00:00.000Z",
    method,
    target,
    operation: null,
    request: {
      auth: over.auth ?? "key",
      headers: over.requestBody === undefined ? { accept: "application/json" } : { "content-type": "application/json" },
      body: over.requestBody === undefined ? null : { text: JSON.stringify(over.requestBody) },
    },
    response: { status, headers: { "content-type": contentType }, body: text === "" ? null : { text } },
    durationMs: 1,
    findings: [],
  };
}

/** What an app did: reads (one twice), the download, two kinds of update, an unknown id, a request without the key. */
const APP: RecordedExchange[] = [
  exchange(1, "GET", `${FILES}/doc-1`, 200),
  exchange(2, "GET", `${FILES}/doc-1`, 200),
  exchange(3, "GET", `${FILES}/doc-1/download`, 200, {
    response: { contentType: "text/plain; charset=utf-8", text: "https://files.example.test/doc-1?sig=abc" },
  }),
  exchange(4, "PUT", `${FILES}/doc-1`, 200, { requestBody: { labels: ["x"] }, response: { text: "" } }),
  exchange(5, "PUT", `${FILES}/doc-1`, 200, {
    requestBody: { labels: ["a", "b"], publicUrl: "https://cdn.example.test/report.txt" },
    response: { text: "" },
  }),
  exchange(6, "GET", `${FILES}/no-such-file`, 422, {
    response: { text: JSON.stringify({ code: "file_not_found", message: 'No file with id "no-such-file" exists.' }) },
  }),
  exchange(7, "GET", `${FILES}/doc-1`, 401, {
    auth: "none",
    response: { text: JSON.stringify({ code: "unauthorized", message: "no key" }) },
  }),
  exchange(8, "GET", "/health", 200),
];

async function exported(
  lines: RecordedExchange[],
  version: PactVersion = 4,
  extra: { maxInteractions?: number; name?: string } = {},
) {
  const file = path.join(scratch, extra.name ?? `app-${Math.random().toString(36).slice(2)}.jsonl`);
  await writeFile(file, lines.map((line) => JSON.stringify(line)).join("\n"));
  return exportPact({
    file,
    consumer: "web-app",
    provider: "file-library",
    version,
    spec,
    secrets: [KEY],
    maxInteractions: extra.maxInteractions ?? 100,
  });
}

type Interaction = {
  description: string;
  providerStates: Array<{ name: string; params: Record<string, string> }>;
  request: Record<string, unknown>;
  response: Record<string, any>;
};

describe("exportPact", () => {
  it("writes one interaction per distinct request with the key, described by what the app did, with the state it needs", async () => {
    const { pact, exchanges, duplicates, leftOut } = await exported(APP);
    const interactions = pact.interactions as unknown as Interaction[];
    expect(interactions.map((i) => [i.description, i.providerStates.map((s) => s.name)])).toEqual([
      ["get file metadata", ["a file with id doc-1 exists"]],
      ["get a download URL", ["a file with id doc-1 exists"]],
      ["update labels", ["a file with id doc-1 exists"]],
      ["update publicUrl and labels", ["a file with id doc-1 exists"]],
      ["get file metadata of a file that does not exist", ["no file with id no-such-file exists"]],
    ]);
    expect(interactions[4]!.providerStates[0]!.params).toEqual({ file_id: "no-such-file" });
    expect([exchanges, duplicates]).toEqual([8, 1]);
    expect(leftOut).toEqual([
      "1 exchange(s) to paths that are not the File Library's",
      "1 distinct request(s) sent without the key or with a wrong one (a verifier sends the key with every request)",
    ]);
    expect(pact.metadata).toMatchObject({ pactSpecification: { version: "4.0" } });
    expect(pact.consumer).toEqual({ name: "web-app" });
  });

  it("numbers a description that would repeat under the same state, so no two interactions share both", async () => {
    const { pact } = await exported([
      exchange(1, "GET", `${FILES}/doc-1?view=a`, 200),
      exchange(2, "GET", `${FILES}/doc-1?view=b`, 200),
      exchange(3, "GET", `${FILES}/doc-2`, 200),
      exchange(4, "PUT", `${FILES}/doc-1`, 200, {
        requestBody: { publicUrl: "https://x.example/1", labels: [] },
        response: { text: "" },
      }),
      exchange(5, "PUT", `${FILES}/doc-1`, 200, {
        requestBody: { labels: [], publicUrl: "https://x.example/2" },
        response: { text: "" },
      }),
    ]);
    const interactions = pact.interactions as unknown as Interaction[];
    expect(interactions.map((i) => `${i.description} / ${i.providerStates[0]!.name}`)).toEqual([
      "get file metadata / a file with id doc-1 exists",
      "get file metadata (2) / a file with id doc-1 exists",
      "get file metadata / a file with id doc-2 exists",
      "update publicUrl and labels / a file with id doc-1 exists",
      "update publicUrl and labels (2) / a file with id doc-1 exists",
    ]);
    expect(interactions[1]!.request.query).toEqual({ view: ["b"] });
  });

  it("sends the request as the app did, a placeholder where the key went, and the key nowhere", async () => {
    const withKey = exchange(1, "PUT", `${FILES}/doc-1`, 200, {
      requestBody: { labels: [`label-${KEY}`] },
      response: { text: "" },
    });
    const { pact } = await exported([
      withKey,
      exchange(2, "GET", `${FILES}/doc-1`, 200, { response: { text: JSON.stringify({ ...METADATA, name: KEY }) } }),
    ]);
    const [update, read] = pact.interactions as unknown as Interaction[];
    expect(update!.request).toEqual({
      method: "PUT",
      path: `${FILES}/doc-1`,
      headers: { Authorization: [`Bearer ${API_KEY_PLACEHOLDER}`], "Content-Type": ["application/json"] },
      body: { content: { labels: ["label-[REDACTED]"] }, contentType: "application/json", encoded: false },
    });
    expect(read!.response.body.content.name).toBe("[REDACTED]");
    expect(JSON.stringify(pact)).not.toContain(KEY);
  });

  it("holds every JSON member the app got by its type, the status and the media type, and the download by an http(s) URL", async () => {
    const { pact } = await exported(APP);
    const [read, download, update] = pact.interactions as unknown as Interaction[];
    expect(read!.response.status).toBe(200);
    expect(read!.response.headers).toEqual({ "Content-Type": ["application/json"] });
    const rules = read!.response.matchingRules.body as Record<string, { matchers: unknown[] }>;
    expect(Object.keys(rules).sort()).toEqual([
      "$",
      "$.created_at",
      "$.id",
      "$.labels",
      "$.labels[*]",
      "$.name",
      "$.publicUrl",
      "$.size",
    ]);
    expect(rules["$.size"]!.matchers).toEqual([{ match: "type" }]);
    // Any number of labels, each like the first.
    expect(rules["$.labels"]!.matchers).toEqual([{ match: "type", min: 0 }]);
    const headerRule = new RegExp(read!.response.matchingRules.header["Content-Type"].matchers[0].regex);
    expect(["application/json", "application/json; charset=utf-8"].every((v) => headerRule.test(v))).toBe(true);
    expect(headerRule.test("text/plain")).toBe(false);

    expect(download!.response.body).toEqual({
      content: "https://files.example.test/doc-1?sig=abc",
      contentType: "text/plain",
      encoded: false,
    });
    expect(download!.response.matchingRules.body).toEqual({
      $: { combine: "AND", matchers: [{ match: "regex", regex: DOWNLOAD_URL_REGEX }] },
    });
    const url = new RegExp(DOWNLOAD_URL_REGEX);
    expect(["http://a.test/x", " https://b.test/y?z=1\r\n"].every((v) => url.test(v))).toBe(true);
    expect(["/relative/x", "ftp://a.test/x", '{"url":"https://a.test"}'].some((v) => url.test(v))).toBe(false);
    // An answer without a body: held to its status alone.
    expect(update!.response).toEqual({
      status: 200,
      headers: { "Content-Type": ["application/json"] },
      matchingRules: expect.any(Object),
    });
    expect(update!.response.body).toBeUndefined();
  });

  it("writes specification 3 when asked: header values and bodies as V3 has them", async () => {
    const { pact } = await exported(APP, 3);
    const [read] = pact.interactions as unknown as Interaction[];
    expect(pact.metadata).toMatchObject({ pactSpecification: { version: "3.0.0" } });
    expect(read).not.toHaveProperty("type");
    expect(read!.request.headers).toEqual({
      Authorization: `Bearer ${API_KEY_PLACEHOLDER}`,
      Accept: "application/json",
    });
    expect(read!.response.body).toEqual(METADATA);
  });

  it("reads a HAR as it reads a recording", async () => {
    const har = {
      log: {
        entries: [
          {
            request: {
              method: "GET",
              url: `https://api.example.test/studio/v1/library/files/doc-1`,
              headers: [{ name: "Authorization", value: "Bearer whatever" }],
            },
            response: {
              status: 200,
              headers: [{ name: "Content-Type", value: "application/json" }],
              content: { text: JSON.stringify(METADATA) },
            },
          },
        ],
      },
    };
    const file = path.join(scratch, "app.har");
    await writeFile(file, JSON.stringify(har));
    const { pact } = await exportPact({
      file,
      consumer: "web-app",
      provider: "file-library",
      version: 4,
      spec,
      secrets: [],
      maxInteractions: 10,
    });
    expect((pact.interactions as unknown as Interaction[]).map((i) => i.description)).toEqual(["get file metadata"]);
  });

  it("refuses a recording with more distinct requests than the bound, naming its line, and one with nothing to export", async () => {
    const many = Array.from({ length: 5 }, (_, n) => exchange(n + 1, "GET", `${FILES}/doc-${n}`, 200));
    await expect(exported(many, 4, { maxInteractions: 3, name: "many.jsonl" })).rejects.toThrow(
      new ExportError(
        `${path.join(scratch, "many.jsonl")}:4: more than 3 distinct requests: a pact this large is refused (raise --max-interactions)`,
      ),
    );
    await expect(exported([APP[6]!, APP[7]!], 4, { name: "none.jsonl" })).rejects.toThrow(
      /none\.jsonl: no request of it sent the key to a File Library operation/,
    );
  });
});
