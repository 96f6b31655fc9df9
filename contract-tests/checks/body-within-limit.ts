import { findings, responseCheck } from "./types.ts";

/** body_within_limit: an answer's body is no longer than the suite reads (the client's limit too). */
export const bodyWithinLimit = responseCheck(
  "body_within_limit",
  "An answer's body is at most FILE_LIBRARY_MAX_RESPONSE_BYTES (default 1 MiB, the client's maxResponseBytes), counted after decompression: the suite stops reading there, and the other checks do not judge a cut body (decisions.md, D30).",
  (ex) =>
    findings(
      ex.cut === undefined
        ? []
        : [
            `the answer's body is over ${ex.cut} bytes (${(ex.cut / 1_048_576).toFixed(1)} MiB); the suite read that much and stopped (FILE_LIBRARY_MAX_RESPONSE_BYTES)`,
          ],
    ),
);
