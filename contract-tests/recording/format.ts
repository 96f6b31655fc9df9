/**
 * The recording format (docs/recording-format.md): JSON Lines, one exchange a line, each line stamped with FORMAT. A
 * line holds what the app sent and what it got, redacted as the reports are, and what the proxy found in it.
 */
import { createHash } from "node:crypto";

/** The format and version every line carries; a reader refuses any other. */
export const FORMAT = "file-library-recording/1";

/** Bodies longer than this (bytes of their text, once decoded) are not kept: their size and sha256 are. */
export const BODY_CAP_BYTES = 64 * 1024;

/** The request headers the service reads (beside the key, recorded as `auth`), the only ones kept and sent again. */
export const READ_HEADERS = ["content-type", "accept"] as const;

/**
 * A body as recorded: its text (after Content-Encoding is undone, every secret redacted), or why it was left out with
 * its size and, when every byte was seen, the sha256 of its decoded bytes.
 */
export type RecordedBody = { text: string } | { elided: string; bytes: number; sha256?: string | undefined };

/**
 * Which key a request carried: `key`, the key of FILE_LIBRARY_API_KEY (sent again with the replay's key); `other`, a
 * bearer token that was not it (sent again as a wrong token); `none`, no Authorization header.
 */
export type RecordedAuth = "key" | "other" | "none";

/** One exchange, one line of a recording. */
export interface RecordedExchange {
  format: typeof FORMAT;
  /** Its place in the recording, from 1, in the order the answers ended. */
  seq: number;
  /** When its request arrived (ISO 8601). */
  at: string;
  method: string;
  /** Path and query as the app sent them, percent-encoding untouched, secrets redacted. */
  target: string;
  /** The operationId of the spec it matched, or null (a path the spec does not have, a CORS preflight). */
  operation: string | null;
  request: { auth: RecordedAuth; headers: Record<string, string>; body: RecordedBody | null };
  response: { status: number; headers: Record<string, string>; body: RecordedBody | null };
  durationMs: number;
  /** What the proxy found in this exchange, either side, redacted. */
  findings: Array<{ side: string; check: string; problem: string }>;
}

/** A body's text as recorded, or elided past the cap (with its size and sha256). */
export function recordedText(text: string, capBytes = BODY_CAP_BYTES): RecordedBody {
  const bytes = Buffer.byteLength(text);
  if (bytes <= capBytes) return { text };
  return { elided: `over ${capBytes} bytes`, bytes, sha256: createHash("sha256").update(text).digest("hex") };
}
