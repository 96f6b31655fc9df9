import type { FailedAttempt } from "../http/no-answer.ts";

/**
 * The runner's start-up read (runner/preflight.ts) as the engine is given it: the answer as received, or every
 * attempt that got none. Plain data, and its type alone, so that the runner's public declarations carry no more of
 * the suite than this.
 */
export type StartupRead =
  | { answer: { status: number; headers: Array<[string, string]>; text: string; cut?: number | undefined; invalidUtf8?: string | undefined; durationMs: number; failedAttempts: FailedAttempt[] } }
  | { noAnswer: { attempts: FailedAttempt[]; message: string } };
