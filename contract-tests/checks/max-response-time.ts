import { DEFAULT_LIMITS, findings, responseCheck } from "./types.ts";

/** max_response_time: answers slower than the limit are reported (a warning, never a failure). */
export const maxResponseTime = responseCheck(
  "max_response_time",
  "An answer slower than FILE_LIBRARY_MAX_RESPONSE_MS (default 5000) is a warning.",
  (ex, _spec, { maxResponseMs } = DEFAULT_LIMITS) =>
    findings(
      [],
      ex.durationMs > maxResponseMs
        ? [`answered in ${Math.round(ex.durationMs)} ms, over the limit of ${maxResponseMs} ms`]
        : [],
    ),
);
