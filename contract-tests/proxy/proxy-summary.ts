import type { Coverage } from "../report/shapes.ts";

/**
 * Whose side a finding is on: the app's request, the service's answer, or the proxy's own (a traffic rule that failed
 * on an exchange: that exchange was not judged across the traffic, so the run cannot pass).
 */
export type Side = "app" | "service" | "proxy";

/** One way the traffic broke the contract, as reports show it (every secret redacted). */
export interface ProxyFinding {
  side: Side;
  /** The operation (its operationId), or the request's method and path when it matches none. */
  operation: string;
  check: string;
  problem: string;
  /** A curl command that sends the request again, straight to the upstream, the key from $FILE_LIBRARY_API_KEY. */
  curl: string;
  status: number;
}

/** One distinct message of a kind of finding: how often it came, and the curl command of its first instance. */
export interface CountedMessage {
  problem: string;
  count: number;
  curl: string;
}

/**
 * A kind of finding (side, operation, check): its first instance (`problem`, `curl`), how often it came in all, and
 * each distinct message with its count (at most 5; the findings of further messages in `messagesLeftOut`).
 */
export type CountedFinding = ProxyFinding & { count: number; messages: CountedMessage[]; messagesLeftOut: number };

/** A kind of warning, its first instance, and how often it came. */
export type CountedWarning = Omit<ProxyFinding, "side"> & { count: number };

/** What a proxy run writes to proxy-summary.json. */
export interface ProxySummary {
  /**
   * Set, and first, when an answer's metadata had the shape of the service's own OpenAPI document: the one line that
   * says why the metadata's checks fail (checks/service-document-shape.ts).
   */
  diagnosis?: string;
  upstream: string;
  /** "failed" when the traffic broke the contract (a finding, either side). */
  verdict: "passed" | "failed";
  /**
   * Set when the upstream answered nothing: no request reached it, or none got an answer. The run checked nothing,
   * and exits 2 with this line.
   */
  stopped?: string;
  /**
   * Set when `--record` left exchanges out of the recording (the disk refused them, or fell behind): the line the
   * proxy printed. The run did not do what it was asked, and exits 2.
   */
  recordingIncomplete?: string;
  exchanges: number;
  /** The spec's operations and the statuses the traffic got, against those documented: coverage of real traffic. */
  coverage: Coverage;
  /** How many requests of each operation passed, by status. */
  statuses: Array<{ operation: string; requests: number; byStatus: Record<string, number> }>;
  /** Operations of the spec the traffic never called. */
  unseen: string[];
  /** Requests that matched no operation of the spec (each is also an app finding, operation_exists). */
  unmatched: number;
  findings: CountedFinding[];
  /** Findings of further kinds, past the 500 kinds a report keeps or the 20 of one side's check (counted only). */
  findingKindsLeftOut: number;
  /** Those findings, counted by side and check. */
  findingsLeftOut: Array<{ side: Side; check: string; count: number }>;
  warnings: CountedWarning[];
  /** Exchanges whose answer was forwarded but not judged, and why (a body over the limit, an unknown encoding). */
  notChecked: Array<{ operation: string; reason: string; count: number }>;
  /** Requests the upstream did not answer (the app got 502), or whose answer broke off; not contract findings. */
  upstreamFailures: { count: number; examples: Array<{ method: string; target: string; reason: string }> };
  /** Apps that went away before their answer: not findings. */
  clientsGone: number;
  /** Exchanges still in flight when the proxy stopped, cut after its drain (also counted in upstreamFailures). */
  cutAtStop: number;
  /**
   * Requests that came once the proxy was stopping: answered 503 (`proxy_stopping`), forwarded nowhere, judged by
   * nothing. How many, and the first five as method and path (redacted). Any at all: the app's traffic was not all
   * checked, and the run exits 2 (docs/decisions.md, D27).
   */
  refusedWhileStopping: RefusedRequests;
  /** Browsers' CORS preflights (OPTIONS with Access-Control-Request-Method): forwarded, not judged. */
  preflights: number;
}

/** Requests the proxy refused while stopping: how many, and the first few as method and redacted path. */
export interface RefusedRequests {
  count: number;
  examples: Array<{ method: string; path: string }>;
}
