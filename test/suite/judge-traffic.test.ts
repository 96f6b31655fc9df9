import { describe, expect, it } from "vitest";
import type { PassedExchange } from "../../contract-tests/proxy/forward.ts";
import { TrafficJudge } from "../../contract-tests/proxy/judge-traffic.ts";
import { TrafficLog } from "../../contract-tests/proxy/traffic-log.ts";
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
  responseBody: body(JSON.stringify({ id: "doc-1", name: token, size: 1, created_at: "2026-01-01T00:00:00Z", labels: [] })),
  startedAt: 0,
  endedAt: 1,
});

describe("TrafficJudge", () => {
  it("redacts the key and every bearer token that passed, past the 256 it keeps: the oldest is forgotten, the key never", () => {
    const said: string[] = [];
    const log = new TrafficLog((line) => said.push(line));
    const judge = new TrafficJudge(spec, "http://upstream.test", { maxResponseMs: 5_000, maxResponseBytes: 1 << 20 }, log, KEY);
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
