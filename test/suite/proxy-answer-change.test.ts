// covers: contract-tests/proxy/answer-change.ts, contract-tests/proxy/forward.ts, contract-tests/proxy/start-proxy.ts
// The two opt-in modes (docs/checking-a-server.md, Findings your app's tests can see): --findings-header names each
// exchange's findings in X-Contract-Findings; --fail-on-service-finding answers 502 problem+json instead of an answer
// that broke the contract. Without them, answers pass as they came.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startProxy, type ProxyOptions } from "../../contract-tests/index.ts";
import { findingsHeaderValue } from "../../contract-tests/proxy/answer-change.ts";
import { sandbox, SANDBOX_KEY } from "../support/sandbox.ts";
import { SANDBOX_FIXTURES } from "../support/contract-suite.ts";

const FILE = "/studio/v1/library/files/doc-1";
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A proxy in front of a sandbox (with a fault, if named), in this process. */
async function proxyFor(fault: string | undefined, modes: Partial<ProxyOptions>) {
  const sb = await sandbox({ fixturesFile: SANDBOX_FIXTURES, ...(fault ? { fault } : {}) });
  cleanups.push(() => sb.close());
  const proxy = await startProxy({
    upstream: sb.baseUrl,
    reportDir: await mkdtemp(path.join(os.tmpdir(), "file-library-answer-change-")),
    env: { FILE_LIBRARY_API_KEY: SANDBOX_KEY },
    say: () => {},
    ...modes,
  });
  cleanups.push(() => proxy.stop());
  const get = (keyed = true) =>
    fetch(`${proxy.url}${FILE}`, { headers: keyed ? { authorization: `Bearer ${SANDBOX_KEY}` } : {} });
  return { proxy, sb, get };
}

describe("the proxy's opt-in modes", { timeout: 60_000 }, () => {
  it("with --record too: each held exchange is judged once, recorded once with its findings, and named in its header", async () => {
    const recording = path.join(await mkdtemp(path.join(os.tmpdir(), "file-library-answer-change-")), "app.jsonl");
    const { get, proxy } = await proxyFor("metadata-size-as-string", { findingsHeader: true, record: recording });
    expect((await get()).headers.get("x-contract-findings")).toBe("1; service getFile response_schema_conformance");
    expect((await get(false)).headers.get("x-contract-findings")).toBe("1; app getFile auth_sent");
    const run = await proxy.stop();
    const lines = (await readFile(recording, "utf8"))
      .trimEnd()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as { response: { status: number }; findings: Array<{ side: string; check: string }> },
      );
    expect(
      lines.map((line) => [line.response.status, line.findings.map(({ side, check }) => `${side} ${check}`)]),
    ).toEqual([
      [200, ["service response_schema_conformance"]],
      [401, ["app auth_sent"]],
    ]);
    // Judged once each: one finding of each kind, seen once.
    expect(run.summary.findings.map(({ side, check, count }) => `${side} ${check} ${count}`).sort()).toEqual([
      "app auth_sent 1",
      "service response_schema_conformance 1",
    ]);
  });

  it("adds nothing by default: the answer that broke the contract reaches the app as it came", async () => {
    const { get } = await proxyFor("metadata-size-as-string", {});
    const answer = await get();
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-contract-findings")).toBeNull();
    expect(typeof ((await answer.json()) as { size: unknown }).size).toBe("string");
  });

  it("--findings-header: names that exchange's findings on each answer, 0 when there are none, the body untouched", async () => {
    const broken = await proxyFor("metadata-size-as-string", { findingsHeader: true });
    const answer = await broken.get();
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-contract-findings")).toBe("1; service getFile response_schema_conformance");
    expect(typeof ((await answer.json()) as { size: unknown }).size).toBe("string");
    const unkeyed = await broken.get(false);
    expect(unkeyed.status).toBe(401);
    expect(unkeyed.headers.get("x-contract-findings")).toBe("1; app getFile auth_sent");
    const sound = await proxyFor(undefined, { findingsHeader: true });
    const good = await sound.get();
    expect(good.headers.get("x-contract-findings")).toBe("0");
    const direct = await fetch(`${sound.sb.baseUrl}${FILE}`, { headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
    expect(await good.text()).toBe(await direct.text());
  });

  it("--fail-on-service-finding: an answer that broke the contract becomes a 502 whose problem+json says why; the app's own faults pass as they came", async () => {
    const { get, proxy } = await proxyFor("metadata-size-as-string", { failOnServiceFinding: true });
    const answer = await get();
    expect(answer.status).toBe(502);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    expect(answer.headers.get("x-contract-proxy")).toBe("service-finding");
    const problem = (await answer.json()) as {
      type: string;
      title: string;
      status: number;
      detail: string;
      upstreamStatus: number;
      findings: Array<{ operation: string; check: string; problem: string }>;
    };
    expect(problem).toMatchObject({
      type: "urn:file-library-contract:proxy:service-finding",
      title: "The service's answer broke the contract",
      status: 502,
      upstreamStatus: 200,
    });
    expect(problem.findings.map((f) => `${f.operation} ${f.check}`)).toEqual(["getFile response_schema_conformance"]);
    expect(problem.detail).toMatch(
      /^The contract proxy held back the upstream's answer \(HTTP 200\): response_schema_conformance: .*size/,
    );
    // The app's own fault is the app's: its answer (401) is the service's correct one, and passes.
    expect((await get(false)).status).toBe(401);
    const run = await proxy.stop();
    expect(run.exitCode).toBe(1);
    expect(run.summary.findings.map((f) => `${f.side} ${f.check}`).sort()).toEqual([
      "app auth_sent",
      "service response_schema_conformance",
    ]);
  });

  it("passes an answer too long to hold as it comes, without the header, and judges it after", async () => {
    const { get, proxy } = await proxyFor(undefined, { findingsHeader: true, maxResponseBytes: 64 });
    const answer = await get();
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-contract-findings")).toBeNull();
    expect(((await answer.json()) as { id: string }).id).toBe("doc-1");
    const run = await proxy.stop();
    expect(run.summary.notChecked.map((n) => n.reason)).toEqual([
      "the body is over 64 bytes (FILE_LIBRARY_MAX_RESPONSE_BYTES)",
    ]);
  });
});

describe("X-Contract-Findings", () => {
  const finding = (operation: string, check = "operation_exists") => ({
    side: "app" as const,
    operation,
    check,
    problem: "p",
    curl: "curl",
    status: 404,
  });

  it("names ten findings at most, after the count of all, in printable ASCII only", () => {
    const value = findingsHeaderValue(Array.from({ length: 12 }, (_, i) => finding(`GET /ünï\u0007/${i}`)));
    expect(value.startsWith("12; app GET /?n??/0 operation_exists, ")).toBe(true);
    expect(value.endsWith("app GET /?n??/9 operation_exists, ...")).toBe(true);
    expect(value).toMatch(/^[\x20-\x7e]+$/);
    expect(findingsHeaderValue([])).toBe("0");
  });
});
