/** The shapes of the suite's JSON reports (contract-summary.json, contract-coverage.json), for programs that read them. */
import type { FailedAttempt, NoAnswerEvidence } from "../http/no-answer.ts";

export type { FailedAttempt, NoAnswerEvidence };

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
  /** Attempts that got no answer before this one did (the request was retried). */
  failedAttempts?: FailedAttempt[] | undefined;
}

/** One failed check, with the exchange that showed it. */
export interface CheckFailureRecord {
  check: string;
  operation: string;
  problem: string;
  evidence?: ExchangeEvidence | undefined;
  /** When the failing request got no answer at all. */
  noAnswer?: NoAnswerEvidence | undefined;
}

/** Which documented statuses of each operation the run saw, and which statuses it saw that are not documented. */
export interface Coverage {
  operations: Array<{
    operation: string;
    documented: Array<{ status: string; observed: boolean }>;
    undocumented: number[];
  }>;
}

/** One check on one operation, as the summary and the JSON report show it. */
export interface CheckOutcome {
  operation: string;
  check: string;
  /**
   * "skipped" by design (not selected, the mock keeps no state, a read-only run); "not run" when the check was selected
   * and applies, but the run could not get to it (the request budget spent, rate-limited past a cap, the server gone):
   * the run then exits 2.
   */
  state: "passed" | "failed" | "skipped" | "not run";
  note?: string | undefined;
  warnings: string[];
  requests: number;
  durationMs: number;
  failures: Array<Omit<CheckFailureRecord, "check" | "operation">>;
  /** What the check sent, by kind of input ("not JSON": 2, "labels of a wrong type": 5, "generated": 5...). */
  inputs?: Array<{ kind: string; count: number }> | undefined;
}

/** The whole run, written to contract-summary.json. */
export interface ContractSummary {
  target: { mode: "mock" | "live"; baseUrl: string | undefined };
  /**
   * Why the metadata fails the schema, in one line, when the server answers it in the shape of the service's own
   * OpenAPI document (other field names, a date for created_at); shown before the failures it explains.
   */
  diagnosis?: string | undefined;
  seed: number | undefined;
  totals: {
    passed: number;
    failed: number;
    skipped: number;
    /** Checks selected and applicable that did not run: any makes the run exit 2 (`stopped` names them). */
    notRun: number;
    warnings: number;
    requests: number;
    /** Requests sent again after a connection closed before any answer. */
    connectionRetries: number;
  };
  checks: CheckOutcome[];
  coverage: Coverage;
  /** Requests that got an answer only on a retry, with what happened to the attempts before. */
  retried: ExchangeEvidence[];
  /** Set when the run could not finish (the server rate-limited it past a cap, or the suite failed outside every check): the run exits 2. */
  stopped?:
    | {
        reason: string /** The run could not start: no check ran (a setting, the spec, the server's answer to its first read). */;
        atStart?: true | undefined;
      }
    | undefined;
}
