import { findings, responseCheck } from "./types.ts";

const DEFAULT_LIMIT_MS = 5_000;

/** The slowest answer that passes without a warning: FILE_LIBRARY_MAX_RESPONSE_MS, default 5000. */
export function maxResponseMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.FILE_LIBRARY_MAX_RESPONSE_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_LIMIT_MS;
}

/** max_response_time: answers slower than the limit are reported (a warning, never a failure). */
export const maxResponseTime = responseCheck("max_response_time", "An answer slower than FILE_LIBRARY_MAX_RESPONSE_MS (default 5000) is a warning.", (ex) => {
  const limit = maxResponseMs();
  return findings([], ex.durationMs > limit ? [`answered in ${Math.round(ex.durationMs)} ms, over the limit of ${limit} ms`] : []);
});
