import type { AnswerChange } from "./forward.ts";
import type { ProxyFinding } from "./proxy-summary.ts";
import { capped, PROBLEM_CHARS } from "./traffic-log.ts";

/** The header --findings-header adds to each answer: how many findings the exchange had, then each one's side, operation and check. */
export const FINDINGS_HEADER = "x-contract-findings";
// Findings a header names at most (the count says how many there were): a header stays a few hundred bytes.
const NAMED_IN_HEADER = 10;

/** Printable ASCII only: an operation of an undocumented path may hold anything, a header value may not. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, "?");

/** The header's value: `0`, or `2; service getFile response_schema_conformance, app getFile auth_sent`. */
export function findingsHeaderValue(findings: readonly ProxyFinding[]): string {
  if (findings.length === 0) return "0";
  const named = findings
    .slice(0, NAMED_IN_HEADER)
    .map((f) => headerSafe(`${f.side} ${f.operation.slice(0, 120)} ${f.check}`));
  return `${findings.length}; ${named.join(", ")}${findings.length > NAMED_IN_HEADER ? ", ..." : ""}`;
}

/**
 * What the opt-in modes do to an answer, from its exchange's findings: --findings-header adds FINDINGS_HEADER;
 * --fail-on-service-finding replaces an answer on which the service broke the contract with a 502 whose
 * problem+json body (RFC 9457) names each finding, so that the app's own test fails at the call that met it.
 */
export function answerChange(
  findings: readonly ProxyFinding[],
  modes: { findingsHeader?: boolean | undefined; failOnServiceFinding?: boolean | undefined },
): AnswerChange {
  const addHeaders: Record<string, string> = modes.findingsHeader
    ? { [FINDINGS_HEADER]: findingsHeaderValue(findings) }
    : {};
  const service = findings.filter((f) => f.side === "service");
  if (!modes.failOnServiceFinding || service.length === 0) return { addHeaders };
  const body = JSON.stringify({
    type: "urn:file-library-contract:proxy:service-finding",
    title: "The service's answer broke the contract",
    status: 502,
    detail: `The contract proxy held back the upstream's answer (HTTP ${service[0]!.status}): ${service.map((f) => `${f.check}: ${capped(f.problem, PROBLEM_CHARS)}`).join("; ")}`,
    upstreamStatus: service[0]!.status,
    findings: service.map((f) => ({
      operation: f.operation,
      check: f.check,
      problem: capped(f.problem, PROBLEM_CHARS),
    })),
  });
  return {
    replace: {
      status: 502,
      headers: {
        ...addHeaders,
        "content-type": "application/problem+json",
        "content-length": String(Buffer.byteLength(body)),
        "x-contract-proxy": "service-finding",
      },
      body,
    },
  };
}
