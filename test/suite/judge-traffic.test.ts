import { afterEach, describe, expect, it, vi } from "vitest";
import type { PassedExchange } from "../../contract-tests/proxy/forward.ts";
import { TrafficJudge } from "../../contract-tests/proxy/judge-traffic.ts";
import { TrafficLog } from "../../contract-tests/proxy/traffic-log.ts";
import { TrafficRules } from "../../contract-tests/proxy/traffic-rules.ts";
import { loadBundledSpec } from "../../lib/openapi/load.ts";
import { bundledSpec } from "../../scripts/lib/paths.ts";

const KEY = "the-environment-key-1234";
const spec = loadBundledSpec(bundledSpec.json, "npm run build:spec");
const body = (text: string) => ({ bytes: Buffer.from(text), total: Buffer.byteLength(text), cut: false });

/** A getFile whose answer echoes the token it was sent, so that every report would show it if it were not redacted. */
const echoing = (token: string): PassedExchange => ({
  token: undefined,
  method: "GET",
  target: "/studio/v1/library/files/doc-1",
  requestHeaders: { authorization: `Bearer ${token}` },
  requestBody: body(""),
  status: 200,
  responseHeaders: { "content-type": "application/json", "x-echo": token },
  responseBody: body(
    JSON.stringify({ id: "doc-1", name: token, size: 1, created_at: "2026-01-01T00:00:00Z", labels: [] }),
  ),
  startedAt: 0,
  endedAt: 1,
});

describe("TrafficJudge", () => {
  it("redacts the key and every bearer token that passed, past the 256 it keeps: the oldest is forgotten, the key never", () => {
    const said: string[] = [];
    const log = new TrafficLog((line) => said.push(line));
    const judge = new TrafficJudge(
      spec,
      "http://upstream.test",
      { maxResponseMs: 5_000, maxResponseBytes: 1 << 20 },
      log,
      KEY,
    );
    const tokens = Array.from({ length: 300 }, (_, i) => `app-token-${String(i).padStart(4, "0")}-secret`);
    for (const token of tokens) judge.judge(echoing(token));
    judge.judge(echoing(KEY));
    const everything = [...said, JSON.stringify([...log.findings.values()])].join("\n");
    expect(log.findings.size).toBeGreaterThan(0);
    for (const token of [...tokens, KEY]) expect(everything).not.toContain(token);
    // Each exchange's own token is learned before it is judged: the last one is redacted, and so is the key.
    expect(judge.redact(`${tokens.at(-1)} ${KEY}`)).toBe("[REDACTED] [REDACTED]");
  });
});

const FILE = "/studio/v1/library/files/doc-1";
const metadata = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({ id: "doc-1", name: "a.pdf", size: 1, created_at: "2026-01-01T00:00:00Z", labels: [], ...fields });

/** A judge in this process, its log and the lines it said. */
function judged() {
  const said: string[] = [];
  const log = new TrafficLog((line) => said.push(line));
  const judge = new TrafficJudge(
    spec,
    "http://upstream.test/",
    { maxResponseMs: 5_000, maxResponseBytes: 1 << 20 },
    log,
    KEY,
  );
  const findings = () => [...log.findings.values()].map((f) => `${f.side} ${f.operation} ${f.check}: ${f.problem}`);
  return { judge, log, said, findings };
}

/** An exchange as it passed the proxy: `at` to `to` ms, the token the judge gave its request when it arrived. */
function passedOf(
  judge: TrafficJudge,
  method: "GET" | "PUT",
  at: number,
  parts: { target?: string; status?: number; sent?: unknown; body?: string; contentType?: string } = {},
) {
  const target = parts.target ?? FILE;
  const token = judge.requestArrived(method, target, at);
  const sent = parts.sent === undefined ? "" : JSON.stringify(parts.sent);
  return (to: number): PassedExchange => ({
    token,
    method,
    target,
    requestHeaders: { authorization: `Bearer ${KEY}`, ...(sent ? { "content-type": "application/json" } : {}) },
    requestBody: body(sent),
    status: parts.status ?? 200,
    responseHeaders: parts.body === undefined ? {} : { "content-type": parts.contentType ?? "application/json" },
    responseBody: body(parts.body ?? ""),
    startedAt: at,
    endedAt: to,
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("TrafficJudge: the traffic rules over exchanges that overlap", () => {
  it("judges no read that overlapped the update, and the first that started after it ended", () => {
    const { judge, findings } = judged();
    const updating = passedOf(judge, "PUT", 0, { sent: { labels: ["new"] } });
    const during = passedOf(judge, "GET", 1, { body: metadata({ labels: ["old"] }) });
    judge.judge(during(2));
    judge.judge(updating(3));
    expect(findings()).toEqual([]);
    judge.judge(passedOf(judge, "GET", 4, { body: metadata({ labels: ["old"] }) })(5));
    expect(findings()).toEqual([
      'service updateFile update_persisted: after sending labels ["new"], getFile shows ["old"] (file "doc-1", no other update between)',
    ]);
  });

  it("expects nothing of a refused update", () => {
    const { judge, findings } = judged();
    judge.judge(passedOf(judge, "PUT", 0, { sent: { labels: ["new"] }, status: 422, body: '{"message":"no"}' })(1));
    judge.judge(passedOf(judge, "GET", 2, { body: metadata({ labels: ["old"] }) })(3));
    expect(findings()).toEqual([]);
  });

  it("finds a publicUrl that the service cut", () => {
    const { judge, findings } = judged();
    judge.judge(passedOf(judge, "PUT", 0, { sent: { publicUrl: "https://cdn.test/a-long-url" } })(1));
    judge.judge(
      passedOf(judge, "GET", 2, { body: metadata({ labels: ["any"], publicUrl: "https://cdn.test/a-lo" }) })(3),
    );
    expect(findings()).toEqual([
      'service updateFile update_persisted: after sending publicUrl "https://cdn.test/a-long-url", getFile shows "https://cdn.test/a-lo" (file "doc-1", no other update between)',
    ]);
  });

  it("counts an update that got no answer as one that came between", () => {
    const { judge, findings } = judged();
    judge.judge(passedOf(judge, "PUT", 0, { sent: { labels: ["new"] } })(1));
    const lost = passedOf(judge, "PUT", 2, { sent: { labels: ["newer"] } })(3);
    judge.unanswered({ token: lost.token, method: "PUT", target: FILE });
    judge.judge(passedOf(judge, "GET", 4, { body: metadata({ labels: ["old"] }) })(5));
    expect(findings()).toEqual([]);
  });
});

describe("TrafficJudge: what the service's own clients and documents do (issue 53)", () => {
  it("warns, and finds nothing, when the labels read back are the ones sent in another order", () => {
    const { judge, log, findings } = judged();
    judge.judge(passedOf(judge, "PUT", 0, { sent: { labels: ["b", "a"] } })(1));
    judge.judge(passedOf(judge, "GET", 2, { body: metadata({ labels: ["a", "b"] }) })(3));
    expect(findings()).toEqual([]);
    expect([...log.warnings.values()].map((w) => `${w.operation} ${w.check}: ${w.problem}`)).toEqual([
      'updateFile update_persisted: after sending labels ["b","a"], getFile shows ["a","b"]: the same labels, in another order or with duplicates collapsed (file "doc-1", no other update between)',
    ]);
  });

  it("says the diagnosis of a metadata answer in the service's own document's shape before that exchange's findings, once", () => {
    const { judge, said } = judged();
    const documentShaped = JSON.stringify({
      fileId: "doc-1",
      name: "a.pdf",
      sizeBytes: 1,
      creationDate: "2026-01-01",
      labels: [],
    });
    judge.judge(passedOf(judge, "GET", 0, { body: documentShaped })(1));
    judge.judge(passedOf(judge, "GET", 2, { body: documentShaped })(3));
    expect(said[0]).toMatch(
      /^contract proxy: DIAGNOSIS: this server answers the field names of the service's own OpenAPI document: fileId → id, sizeBytes → size, creationDate → created_at/,
    );
    expect(said.slice(1).every((line) => line.startsWith("contract proxy: FINDING (service) getFile "))).toBe(true);
    expect(said.length).toBeGreaterThan(1);
  });

  it("says no diagnosis of an answer in the description's shape, nor of a download's", () => {
    const { judge, said } = judged();
    judge.judge(passedOf(judge, "GET", 0, { body: metadata({ size: "1" }) })(1));
    judge.judge(passedOf(judge, "GET", 2, { target: `${FILE}/download`, body: '{"fileId":"x","sizeBytes":1}' })(3));
    expect(said.length).toBeGreaterThan(0);
    expect(said.filter((line) => line.includes("DIAGNOSIS"))).toEqual([]);
  });
});

describe("TrafficJudge: a traffic rule that throws", () => {
  const broken = (method: "read" | "updateStarted" | "updateEnded") =>
    vi.spyOn(TrafficRules.prototype, method).mockImplementation(() => {
      throw new TypeError(`the rule broke\n    at ${method}`);
    });

  it("is the proxy's own finding on that exchange, in one line, and the exchange's other checks still run", () => {
    broken("read");
    const { judge, log, said, findings } = judged();
    judge.judge(passedOf(judge, "GET", 0, { body: metadata({ size: "1" }) })(1));
    expect(findings()).toEqual([
      "service getFile response_schema_conformance: the body does not match #/components/schemas/FileMetadata: body/size must be integer",
      'proxy getFile traffic_rules: the check stopped on an unexpected error while judging the read HTTP 200 of "doc-1" across the traffic: TypeError: the rule broke at read',
    ]);
    expect(said.at(-1)).toMatch(
      /^contract proxy: FINDING \(proxy\) getFile traffic_rules: the check stopped on an unexpected error while judging the read HTTP 200 of "doc-1" across the traffic: TypeError: the rule broke at read\n {4}reproduce: curl /,
    );
    expect(log.findings.size).toBe(2);
  });

  it("as an update arrives: the request still passes, and its exchange carries the finding", () => {
    broken("updateStarted");
    const { judge, findings } = judged();
    const update = passedOf(judge, "PUT", 0, { sent: { labels: ["a"] } });
    judge.judge(update(1));
    expect(findings()).toEqual([
      `proxy updateFile traffic_rules: the check stopped on an unexpected error while noting PUT ${FILE} as it arrived: TypeError: the rule broke at updateStarted`,
    ]);
    const lost = passedOf(judge, "PUT", 2, { target: "/studio/v1/library/files/doc-2", sent: {} })(3);
    judge.unanswered({ token: lost.token, method: "PUT", target: lost.target });
    expect(findings().at(-1)).toBe(
      "proxy PUT /studio/v1/library/files/doc-2 traffic_rules: the check stopped on an unexpected error while noting PUT /studio/v1/library/files/doc-2 as it arrived: TypeError: the rule broke at updateStarted",
    );
  });

  it("as an update's answer or its absence is noted", () => {
    broken("updateEnded");
    const { judge, log, findings } = judged();
    judge.judge(passedOf(judge, "PUT", 0, { sent: { labels: ["a"] } })(1));
    expect(findings()).toEqual([
      `proxy updateFile traffic_rules: the check stopped on an unexpected error while noting the answer HTTP 200 to PUT ${FILE}: TypeError: the rule broke at updateEnded`,
    ]);
    const lost = passedOf(judge, "PUT", 2, { target: `${FILE}?x=${KEY}`, sent: {} })(3);
    judge.unanswered({ token: lost.token, method: "PUT", target: lost.target });
    const finding = [...log.findings.values()].at(-1)!;
    expect(finding).toMatchObject({ side: "proxy", operation: `PUT ${FILE}`, check: "traffic_rules", status: 0 });
    expect(finding.problem).toBe(
      `the check stopped on an unexpected error while noting that PUT ${FILE} got no answer: TypeError: the rule broke at updateEnded`,
    );
    expect(finding.curl).toBe("curl -i -X PUT 'http://upstream.test/studio/v1/library/files/doc-1?x=[REDACTED]'");
  });
});

describe("TrafficJudge: problem documents (decisions.md, D14)", () => {
  it.each([
    ["an array", "[]", "the body does not match #/components/schemas/ErrorBody: body must be object"],
    [
      '"message": 42',
      '{"message":42}',
      "the body does not match #/components/schemas/ErrorBody: body/message must be string",
    ],
    [
      '"status": "422"',
      '{"status":"422"}',
      `the problem document breaks RFC 9457: "status" is "422", not the answer's status as a number (422) (§3.1.2)`,
    ],
    ['"title": 1', '{"title":1}', `the problem document breaks RFC 9457: "title" is 1, not a string (§3.1.3)`],
  ])("fails a problem+json error body with %s on the service's side", (_, text, problem) => {
    const { judge, log } = judged();
    judge.judge(
      passedOf(judge, "GET", 0, {
        target: "/studio/v1/library/files/nope",
        status: 422,
        body: text,
        contentType: "application/problem+json",
      })(1),
    );
    expect([...log.findings.values()].map((f) => `${f.side} ${f.check}: ${f.problem}`)).toEqual([
      `service response_schema_conformance: ${problem}`,
    ]);
    expect([...log.warnings.values()].map((w) => w.check)).toEqual(["content_type_conformance"]);
  });
});

describe("TrafficJudge: the app's JSON", () => {
  /** An update that sent this text as its JSON body, answered 200. */
  const update = (judge: TrafficJudge, text: string): PassedExchange => ({
    token: judge.requestArrived("PUT", FILE, 0),
    method: "PUT",
    target: FILE,
    requestHeaders: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    requestBody: body(text),
    status: 200,
    responseHeaders: { "x-request-id": "r-1" },
    responseBody: body(""),
    startedAt: 0,
    endedAt: 1,
  });

  it("finds a member name twice in one object of the request body on the app's side, as json_well_formed finds it in an answer", () => {
    const { judge, findings } = judged();
    judge.judge(update(judge, '{"labels":["a"],"publicUrl":"https://cdn.test/a","labels":["b"]}'));
    expect(findings()).toEqual([
      'app updateFile json_well_formed: the request body names "labels" twice in one object: JSON.parse keeps the last value, other parsers the first, strict ones fail',
    ]);
  });

  it("finds none where the name comes again only inside a string", () => {
    const { judge, findings } = judged();
    judge.judge(update(judge, '{"labels":["{\\"labels\\":1}"],"publicUrl":"https://cdn.test/a"}'));
    expect(findings()).toEqual([]);
  });
});
