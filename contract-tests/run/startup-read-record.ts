import type { FailedAttempt } from "../http/no-answer.ts";

/**
 * The runner's start-up read (runner/preflight.ts) as the engine is given it: the answer as received, or every
 * attempt that got none. Plain data, and its type alone, so that the runner's public declarations carry no more of
 * the suite than this.
 */
export type StartupRead = (
  | { answer: RecordedAnswer & { failedAttempts: FailedAttempt[] } }
  | { noAnswer: { attempts: FailedAttempt[]; message: string } }
) & {
  /** The 429s waited out before that answer, in order: answers of the run like any other. */
  rateLimited?: RecordedAnswer[] | undefined;
  /** Milliseconds spent waiting them out: the run's cap per run (FILE_LIBRARY_MAX_TOTAL_WAIT_MS) counts them. */
  waitedMs?: number | undefined;
};

/** One answer as received, its headers as pairs. */
export interface RecordedAnswer {
  status: number;
  headers: Array<[string, string]>;
  text: string;
  cut?: number | undefined;
  invalidUtf8?: string | undefined;
  durationMs: number;
}
