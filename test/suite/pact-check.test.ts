// covers: contract-tests/pact/read-pact.ts, contract-tests/pact/judge-pact.ts, contract-tests/pact/undocumented-members.ts, contract-tests/pact/pact-reports.ts, contract-tests/runner/pact-command.ts
// Pacts written by pact-js's own consumer DSL (V3 and V4), judged against the spec with no server: ordinary pacts fit,
// one that breaks the spec is found and named; side by side with PactFlow's openapi-pact-comparator on the same pacts.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { MatchersV3, PactV3, PactV4 } from "@pact-foundation/pact";
import * as comparatorPackage from "@pactflow/openapi-pact-comparator";
import { defaultSpecFile } from "../../contract-tests/locations.ts";
import { judgePact, type PactFinding } from "../../contract-tests/pact/judge-pact.ts";
import { PactFileError, readPact } from "../../contract-tests/pact/read-pact.ts";
import { runPactCommand } from "../../contract-tests/runner/pact-command.ts";
import { loadSuiteSpec } from "../../contract-tests/run/spec.ts";
import { ensureBundle } from "../support/sandbox.ts";

const { like, eachLike } = MatchersV3;

/** What the comparator reports, as far as this test reads it. */
interface ComparatorResult {
  type: "error" | "warning";
  code: string;
  mockDetails?: { location?: string };
}
// The package's own types do not resolve under NodeNext (its index re-exports "./compare", a folder): its one class, typed here.
const { Comparator } = comparatorPackage as unknown as {
  Comparator: new (options: { oas: unknown }) => { compare(pact: unknown): AsyncIterable<ComparatorResult> };
};
const FILES = "/studio/v1/library/files";
// What a consumer team's tests send for the key: the pact holds it as written, and no output of ours shows headers.
const TOKEN = "consumer-team-token-8k2";
const METADATA = {
  id: like("doc-1"),
  name: like("report.txt"),
  size: like(5),
  created_at: like("2026-03-04T05:06:07Z"),
  labels: eachLike("a"),
  publicUrl: like("https://cdn.example.test/r.txt"),
};

let scratch: string;
let spec: ReturnType<typeof loadSuiteSpec>;
const pacts: Record<"fitV3" | "fitV4" | "broken" | "handWritten", string> = {
  fitV3: "",
  fitV4: "",
  broken: "",
  handWritten: "",
};

/** Sends each request to pact-js's mock server, as the consumer's code under test would. */
const sendAll = (requests: Array<[string, string, RequestInit?]>) => async (mock: { url: string }) => {
  for (const [method, target, init = {}] of requests) {
    const answer = await fetch(`${mock.url}${target}`, { method, ...init });
    await answer.arrayBuffer();
  }
};
const withKey = { Authorization: `Bearer ${TOKEN}` };
const json = { ...withKey, "Content-Type": "application/json" };

beforeAll(async () => {
  vi.stubEnv("PACT_DO_NOT_TRACK", "true");
  ensureBundle();
  spec = loadSuiteSpec(defaultSpecFile);
  scratch = await mkdtemp(path.join(os.tmpdir(), "file-library-pact-check-"));
  const dir = path.join(scratch, "pacts");

  // An ordinary consumer's pact, V3: reads, the download, an update, an unknown id, a missing key.
  const v3 = new PactV3({ consumer: "fit-v3", provider: "file-library", dir, logLevel: "error" });
  v3.given("a file with id doc-1 exists")
    .uponReceiving("get file metadata")
    .withRequest({ method: "GET", path: `${FILES}/doc-1`, headers: { Authorization: like(`Bearer ${TOKEN}`) } })
    .willRespondWith({ status: 200, headers: { "Content-Type": "application/json" }, body: METADATA });
  v3.given("a file with id doc-1 exists")
    .uponReceiving("get a download URL")
    .withRequest({ method: "GET", path: `${FILES}/doc-1/download`, headers: withKey })
    .willRespondWith({
      status: 200,
      headers: { "Content-Type": "text/plain" },
      body: "https://files.example.test/doc-1?sig=abc",
    });
  v3.given("a file with id doc-1 exists")
    .uponReceiving("update labels")
    .withRequest({ method: "PUT", path: `${FILES}/doc-1`, headers: json, body: { labels: eachLike("x") } })
    .willRespondWith({ status: 200 });
  v3.given("no file with id nope exists")
    .uponReceiving("get file metadata of a file that does not exist")
    .withRequest({ method: "GET", path: `${FILES}/nope`, headers: withKey })
    .willRespondWith({
      status: 422,
      headers: { "Content-Type": "application/json" },
      body: { code: like("file_not_found"), message: like("No file") },
    });
  v3.uponReceiving("get file metadata without a key")
    .withRequest({ method: "GET", path: `${FILES}/doc-1` })
    .willRespondWith({ status: 401 });
  await v3.executeTest(
    sendAll([
      ["GET", `${FILES}/doc-1`, { headers: withKey }],
      ["GET", `${FILES}/doc-1/download`, { headers: withKey }],
      ["PUT", `${FILES}/doc-1`, { headers: json, body: JSON.stringify({ labels: ["x", "y"] }) }],
      ["GET", `${FILES}/nope`, { headers: withKey }],
      ["GET", `${FILES}/doc-1`],
    ]),
  );
  pacts.fitV3 = path.join(dir, "fit-v3-file-library.json");

  // The same kind of consumer on V4: the interaction builder, bodies as V4 writes them.
  const v4 = new PactV4({ consumer: "fit-v4", provider: "file-library", dir, logLevel: "error" });
  await v4
    .addInteraction()
    .given("a file with id doc-1 exists")
    .uponReceiving("update publicUrl and labels")
    .withRequest("PUT", `${FILES}/doc-1`, (b) =>
      b.headers(json).jsonBody({ labels: eachLike("x"), publicUrl: like("https://cdn.example.test/a.pdf") }),
    )
    .willRespondWith(200)
    .executeTest(
      sendAll([
        [
          "PUT",
          `${FILES}/doc-1`,
          { headers: json, body: JSON.stringify({ labels: ["x"], publicUrl: "https://cdn.example.test/a.pdf" }) },
        ],
      ]),
    );
  await v4
    .addInteraction()
    .given("a file with id doc-1 exists")
    .uponReceiving("get file metadata")
    .withRequest("GET", `${FILES}/doc-1`, (b) => b.headers(withKey))
    .willRespondWith(200, (b) =>
      b.jsonBody({ id: like("doc-1"), labels: eachLike("a"), created_at: like("2026-03-04T05:06:07Z") }),
    )
    .executeTest(sendAll([["GET", `${FILES}/doc-1`, { headers: withKey }]]));
  pacts.fitV4 = path.join(dir, "fit-v4-file-library.json");

  // A consumer that relies on what the spec does not say: size as a string, labels as one string, a 404, a path the service lacks.
  const broken = new PactV3({ consumer: "broken", provider: "file-library", dir, logLevel: "error" });
  broken
    .given("a file with id doc-1 exists")
    .uponReceiving("get file metadata")
    .withRequest({ method: "GET", path: `${FILES}/doc-1`, headers: withKey })
    .willRespondWith({
      status: 200,
      headers: { "Content-Type": "application/json" },
      body: { ...METADATA, size: like("1234") },
    });
  broken
    .given("a file with id doc-1 exists")
    .uponReceiving("update labels")
    .withRequest({ method: "PUT", path: `${FILES}/doc-1`, headers: json, body: { labels: like("x") } })
    .willRespondWith({ status: 200 });
  broken
    .given("no file with id nope exists")
    .uponReceiving("get a missing file")
    .withRequest({ method: "GET", path: `${FILES}/nope`, headers: withKey })
    .willRespondWith({ status: 404 });
  broken
    .given("a file with id doc-1 exists")
    .uponReceiving("get the owner of a file")
    .withRequest({ method: "GET", path: `${FILES}/doc-1`, headers: withKey, query: { fields: "owner" } })
    .willRespondWith({
      status: 200,
      headers: { "Content-Type": "application/json" },
      body: { id: like("doc-1"), owner: like("ann") },
    });
  broken
    .given("a folder f-1 exists")
    .uponReceiving("list a folder")
    .withRequest({ method: "GET", path: "/studio/v1/library/folders/f-1", headers: withKey })
    .willRespondWith({
      status: 200,
      headers: { "Content-Type": "application/json" },
      body: { files: eachLike("doc-1") },
    });
  await broken.executeTest(
    sendAll([
      ["GET", `${FILES}/doc-1`, { headers: withKey }],
      ["PUT", `${FILES}/doc-1`, { headers: json, body: JSON.stringify({ labels: "x" }) }],
      ["GET", `${FILES}/nope`, { headers: withKey }],
      ["GET", `${FILES}/doc-1?fields=owner`, { headers: withKey }],
      ["GET", "/studio/v1/library/folders/f-1", { headers: withKey }],
    ]),
  );
  pacts.broken = path.join(dir, "broken-file-library.json");

  // What the DSL makes hard to write wrong, written by hand: no key, a date that is none, a relative download URL, media types the spec lacks, 500.
  const given = [{ name: "a file with id doc-1 exists" }];
  const one = (description: string, request: object, response: object) => ({
    description,
    providerStates: given,
    request,
    response,
  });
  const jsonAnswer = (body: unknown) => ({ status: 200, headers: { "Content-Type": "application/json" }, body });
  pacts.handWritten = path.join(dir, "hand-written.json");
  await writeFile(
    pacts.handWritten,
    JSON.stringify({
      consumer: { name: "hand" },
      provider: { name: "file-library" },
      metadata: { pactSpecification: { version: "3.0.0" } },
      interactions: [
        one("read without a key", { method: "GET", path: `${FILES}/doc-1` }, jsonAnswer({ id: "doc-1" })),
        one(
          "read a date that is none",
          { method: "GET", path: `${FILES}/doc-1`, headers: withKey },
          jsonAnswer({ created_at: "yesterday" }),
        ),
        one(
          "a relative download URL",
          { method: "GET", path: `${FILES}/doc-1/download`, headers: withKey },
          { status: 200, headers: { "Content-Type": "text/plain" }, body: "/files/doc-1" },
        ),
        one(
          "update as a form",
          {
            method: "PUT",
            path: `${FILES}/doc-1`,
            headers: { ...withKey, "Content-Type": "text/plain" },
            body: "labels=a",
          },
          { status: 200 },
        ),
        one(
          "metadata as HTML",
          { method: "GET", path: `${FILES}/doc-1`, headers: withKey },
          { status: 200, headers: { "Content-Type": "text/html" }, body: "<p>" },
        ),
        one(
          "an update whose labels are no list",
          { method: "PUT", path: `${FILES}/doc-1`, headers: json, body: { labels: "red" } },
          { status: 200 },
        ),
        one(
          "an update that answers a body",
          { method: "PUT", path: `${FILES}/doc-1`, headers: json, body: { labels: ["a"] } },
          jsonAnswer({ ok: true }),
        ),
        one("a server error", { method: "GET", path: `${FILES}/doc-1`, headers: withKey }, { status: 500 }),
      ],
    }),
  );
}, 60_000);
afterAll(() => (process.env.KEEP_SCRATCH ? undefined : rm(scratch, { recursive: true, force: true })));

/** `pact check` through its command, its lines and reports captured. */
async function check(file: string, env: Record<string, string> = {}) {
  const reportDir = path.join(scratch, `reports-${path.basename(file)}`);
  const said: string[] = [];
  const spy = vi.spyOn(console, "error").mockImplementation((line: string) => void said.push(line));
  const code = await runPactCommand(["check", file, "--report-dir", reportDir], "file-library-contract", env).finally(
    () => spy.mockRestore(),
  );
  return { code, output: said.join("\n"), reportDir };
}

const judged = async (file: string): Promise<PactFinding[]> => judgePact(spec, (await readPact(file)).interactions);

describe("pact check on pacts written by pact-js", () => {
  it("finds each way the hand-written pact breaks the spec, in each interaction", async () => {
    expect((await judged(pacts.handWritten)).map((f) => `${f.index + 1} ${f.side} ${f.member} ${f.check}`)).toEqual([
      "1 request header Authorization auth_sent",
      "2 response $.created_at response_schema_conformance",
      "2 response $.created_at response_schema_conformance",
      "3 response $ response_schema_conformance",
      "3 response $ response_schema_conformance",
      "4 request header Content-Type request_content_type",
      "5 response headers content_type_conformance",
      "6 request $.labels request_body_valid",
      "7 response body response_schema_conformance",
      "8 response status not_a_server_error",
    ]);
  });

  it("passes ordinary V3 and V4 pacts: matchers judged by their examples, what a pact leaves out no finding", async () => {
    for (const file of [pacts.fitV3, pacts.fitV4]) {
      const run = await check(file);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(/passed: \d interaction\(s\) of fit-v[34], \d fit the spec, 0 finding\(s\)/);
    }
    expect((await readPact(pacts.fitV4)).specification).toBe("4.0");
  });

  it("finds and names what breaks the spec: the interaction, the side, the member and the check", async () => {
    const run = await check(pacts.broken);
    expect(run.code).toBe(1);
    const lines = run.output.split("\n").filter((line) => line.includes("FINDING"));
    expect(lines).toEqual([
      expect.stringContaining(
        `interaction 1 "get file metadata (given a file with id doc-1 exists)", response $.size: response_schema_conformance: must be integer`,
      ),
      expect.stringContaining(
        `interaction 2 "update labels (given a file with id doc-1 exists)", request $.labels: request_body_valid:`,
      ),
      expect.stringContaining(
        `interaction 3 "get a missing file (given no file with id nope exists)", response status: status_code_conformance:`,
      ),
      expect.stringContaining(
        `interaction 4 "get the owner of a file (given a file with id doc-1 exists)", response $.owner: response_member_documented: the consumer relies on a member the spec does not document`,
      ),
      expect.stringContaining(
        `interaction 5 "list a folder (given a folder f-1 exists)", request path: operation_exists: no path of the spec matches /studio/v1/library/folders/f-1`,
      ),
    ]);
    expect(run.output).not.toContain(TOKEN);
    const summary = JSON.parse(await readFile(path.join(run.reportDir, "pact-summary.json"), "utf8")) as {
      verdict: string;
      interactions: Array<{ fits: boolean }>;
    };
    expect(summary.verdict).toBe("failed");
    expect(summary.interactions.map((i) => i.fits)).toEqual([false, false, false, false, false]);
    const junit = await readFile(path.join(run.reportDir, "pact-junit.xml"), "utf8");
    expect(junit).toContain('<testsuites name="file-library-contract pact" tests="5" failures="5"');
    expect(await readFile(path.join(run.reportDir, "pact-summary.md"), "utf8")).toContain(
      "| 1 | response | $.size | response_schema_conformance | must be integer",
    );
    for (const file of ["pact-junit.xml", "pact-summary.json", "pact-summary.md"])
      expect(await readFile(path.join(run.reportDir, file), "utf8")).not.toContain(TOKEN);
  });

  it("shows the key in no output or report, where a pact holds it by mistake", async () => {
    const key = "provider-Key_2j!9";
    const file = path.join(scratch, "with-key.json");
    const interaction = {
      description: `read with ${key}`,
      request: { method: "GET", path: `/studio/v1/library/keys/${key}`, headers: { Authorization: `Bearer ${key}` } },
      response: { status: 200 },
    };
    await writeFile(
      file,
      JSON.stringify({
        consumer: { name: "careless" },
        provider: { name: "file-library" },
        interactions: [interaction],
      }),
    );
    const run = await check(file, { FILE_LIBRARY_API_KEY: key });
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      "request path: operation_exists: no path of the spec matches /studio/v1/library/keys/[REDACTED]",
    );
    for (const text of [
      run.output,
      ...(await Promise.all(
        ["pact-junit.xml", "pact-summary.json", "pact-summary.md"].map((name) =>
          readFile(path.join(run.reportDir, name), "utf8"),
        ),
      )),
    ])
      expect(text).not.toContain(key);
  });

  it('judges a matcher by the type it enforces and its example: like("1234") on size does not fit, like("2026-…Z") on created_at does', async () => {
    const findings = await judged(pacts.broken);
    expect(findings.filter((f) => f.index === 0).map((f) => f.member)).toEqual(["$.size"]);
  });
});

describe("pact check on a pact it cannot read", () => {
  it.each([
    [
      "not JSON",
      '{\n  "consumer": {"name": "a"},\n  "provider": {"name": "b"},\n  "interactions": [\n    {"description": "x",,}\n  ]\n}\n',
      /bad\.json:5:\d+: not JSON/,
    ],
    [
      "a member missing",
      JSON.stringify({
        consumer: { name: "a" },
        provider: { name: "b" },
        interactions: [
          { description: "x", request: { method: "GET", path: "/x" }, response: { status: 200 } },
          { description: "y", request: { path: "/y" }, response: { status: 200 } },
        ],
      }),
      /bad\.json: interactions\[1\]\.request\.method is missing or not a string/,
    ],
    [
      "no interactions array",
      JSON.stringify({ consumer: { name: "a" }, provider: { name: "b" } }),
      /bad\.json: interactions is missing or not an array/,
    ],
  ])("exits 2 on %s, naming the line or the member", async (_what, text, named) => {
    const file = path.join(scratch, "bad.json");
    await writeFile(file, text);
    await expect(readPact(file)).rejects.toThrow(PactFileError);
    const run = await check(file);
    expect(run.code).toBe(2);
    expect(run.output).toMatch(named);
  });

  it("reads a pact of specification 2 (the state a string, the query a string)", async () => {
    const file = path.join(scratch, "v2.json");
    await writeFile(
      file,
      JSON.stringify({
        consumer: { name: "old" },
        provider: { name: "file-library" },
        interactions: [
          {
            description: "get file metadata",
            providerState: "a file with id doc-1 exists",
            request: { method: "get", path: `${FILES}/doc-1`, query: "view=full", headers: withKey },
            response: { status: 200, headers: { "Content-Type": "application/json" }, body: { size: "5" } },
          },
        ],
        metadata: { pactSpecification: { version: "2.0.0" } },
      }),
    );
    const read = await readPact(file);
    expect(read.interactions[0]).toMatchObject({
      states: ["a file with id doc-1 exists"],
      request: { method: "GET", query: "view=full" },
    });
    expect((await judged(file)).map((f) => `${f.side} ${f.member} ${f.check}`)).toEqual([
      "response $.size response_schema_conformance",
    ]);
  });
});

describe("side by side with PactFlow's openapi-pact-comparator", () => {
  it("finds at least what it finds, on the same pacts (docs/decisions.md, D26, says where they differ)", async () => {
    const comparator = new Comparator({ oas: JSON.parse(await readFile(defaultSpecFile, "utf8")) });
    for (const file of Object.values(pacts)) {
      const theirs: string[] = [];
      for await (const result of comparator.compare(JSON.parse(await readFile(file, "utf8")))) {
        if (result.type !== "error") continue;
        const at = /^\[root\]\.interactions\[(\d+)\]\.(request|response)/.exec(result.mockDetails?.location ?? "");
        theirs.push(at ? `${Number(at[1])} ${at[2]}` : `? ${result.code}`);
      }
      const ours = new Set((await judged(file)).map((f) => `${f.index} ${f.side}`));
      expect(
        theirs.filter((found) => !ours.has(found)),
        `${path.basename(file)}: what the comparator found and we did not`,
      ).toEqual([]);
      if (file === pacts.broken || file === pacts.handWritten)
        expect(theirs.length, path.basename(file)).toBeGreaterThan(0);
    }
  });
});
