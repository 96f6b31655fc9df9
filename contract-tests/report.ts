/** The shapes of the suite's JSON reports (contract-summary.json, contract-coverage.json), for programs that read them. */

/** What a report shows of one exchange: the request line and the start of the answer; the key is already redacted. */
export interface ExchangeEvidence {
  operationId: string;
  method: string;
  path: string;
  url: string;
  status: number;
  contentType: string | null;
  bodyExcerpt: string;
  /** A command that sends the same request, with the key as $FILE_LIBRARY_API_KEY. */
  curl: string;
}

/** One failed check, with the exchange that showed it. */
export interface CheckFailureRecord {
  check: string;
  operation: string;
  problem: string;
  evidence?: ExchangeEvidence | undefined;
}

/** Which documented statuses of each operation the run saw, and which statuses it saw that are not documented. */
export interface Coverage {
  operations: Array<{ operation: string; documented: Array<{ status: string; observed: boolean }>; undocumented: number[] }>;
}

/** One check on one operation, as the summary and the JSON report show it. */
export interface CheckOutcome {
  operation: string;
  check: string;
  state: "passed" | "failed" | "skipped";
  note?: string | undefined;
  warnings: string[];
  requests: number;
  durationMs: number;
  failures: Array<{ problem: string; evidence?: ExchangeEvidence | undefined }>;
}

/** The whole run, written to contract-summary.json. */
export interface ContractSummary {
  target: { mode: "mock" | "live"; baseUrl: string | undefined };
  seed: number | undefined;
  totals: { passed: number; failed: number; skipped: number; warnings: number; requests: number };
  checks: CheckOutcome[];
  coverage: Coverage;
}
