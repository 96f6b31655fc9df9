import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { bearerToken } from "../../lib/bearer-token.ts";
import { headerValue } from "../../lib/openapi/request-inspection.ts";
import { isSecretName, REDACTED } from "../../src/redact.ts";
import type { CapturedBody, PassedExchange } from "../proxy/forward.ts";
import type { JudgeEvents } from "../proxy/judge-traffic.ts";
import { decodeBody } from "../proxy/decode-body.ts";
import { SettingError } from "../run/settings.ts";
import { FORMAT, READ_HEADERS, recordedText, type RecordedAuth, type RecordedBody, type RecordedExchange } from "./format.ts";

/** Headers of one connection, or that the replay's own client sets: not recorded. */
const NOT_RECORDED = new Set(["connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade", "te", "trailer"]);

/** Lines waiting for the disk past this many bytes are dropped and counted: the proxy's memory stays bounded. */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** What the recorder needs of the judge: its redaction, which knows every bearer token that passed. */
export type Redact = (text: string) => string;

/**
 * Writes every exchange the proxy judged to a JSON Lines file as it passes (contract-tests/recording/format.ts): one
 * line each, streamed, so that memory does not grow with the traffic. Findings reach it through `listen`, which
 * passes every event on to the proxy's own log.
 */
export class Recorder {
  private readonly out: WriteStream;
  private seq = 0;
  private operation: string | null = null;
  private findings: RecordedExchange["findings"] = [];
  private failed: Error | undefined;
  /** Lines the disk refused (or that came after it did), and lines dropped while it was behind. */
  private refused = 0;
  private behind = 0;

  private constructor(
    file: string,
    private readonly apiKey: string | undefined,
    private readonly maxBytes: number,
    private readonly maxBuffered: number,
  ) {
    this.out = createWriteStream(file, { flags: "w" });
    this.out.on("error", (error) => (this.failed ??= error));
  }

  /** Opens (truncates) the recording; a file that cannot be written is a wrong setting (SettingError, exit 2). */
  static async open(file: string, options: { apiKey: string | undefined; maxBytes: number; maxBufferedBytes?: number }): Promise<Recorder> {
    const recorder = new Recorder(file, options.apiKey, options.maxBytes, options.maxBufferedBytes ?? MAX_BUFFERED_BYTES);
    await once(recorder.out, "open").catch(() => {});
    if (recorder.failed) throw new SettingError("--record", `cannot write ${JSON.stringify(file)}: ${recorder.failed.message}`);
    return recorder;
  }

  /** The judge's events, passed on to `next`; the ones about the exchange being judged are kept for its line. */
  listen(next: JudgeEvents): JudgeEvents {
    return {
      finding: (finding) => {
        this.findings.push({ side: finding.side, check: finding.check, problem: finding.problem });
        next.finding(finding);
      },
      warning: (warning) => next.warning(warning),
      seen: (operation, status) => {
        this.operation = operation ?? null;
        next.seen(operation, status);
      },
      notChecked: (operation, reason) => next.notChecked(operation, reason),
      preflight: () => next.preflight(),
      diagnosis: (line) => next.diagnosis?.(line),
    };
  }

  /** Judges one exchange with `judge`, then writes its line, with what the judging found (also when it threw). */
  record(passed: PassedExchange, judge: () => void, redact: Redact): void {
    this.operation = null;
    this.findings = [];
    try {
      judge();
    } finally {
      // After the disk refused a line, the stream is closed: nothing more reaches the file (its seq is used up all the
      // same, as for every exchange).
      if (this.failed) (this.refused++, this.seq++);
      // A disk slower than the traffic: the line is dropped rather than held, and the recording says it is incomplete.
      // It still takes its seq: the numbers missing from the file show where the holes are.
      else if (this.out.writableLength > this.maxBuffered) (this.behind++, this.seq++);
      // A line the disk then refuses (ENOSPC, EIO) is missing too. Its callback can come before the stream's 'error'
      // event (an fs stream emits it once the file is closed): the error is kept here too, for close() to name.
      else
        this.out.write(`${redact(JSON.stringify(this.line(passed, redact)))}\n`, (error) => {
          if (!error) return;
          this.refused++;
          this.failed ??= error;
        });
    }
  }

  /** Ends the file; resolves with why exchanges are missing from it (the disk refused them, or fell behind), or undefined. */
  async close(): Promise<string | undefined> {
    // Until the file is closed, not only ended: its own 'error' (a refused write, a failed close) comes after 'finish'.
    // An 'error' ends the wait too, the constructor's listener having kept it.
    if (!this.out.closed) await Promise.all([once(this.out, "close"), this.out.end()]).catch(() => {});
    const dropped = this.refused + this.behind;
    if (dropped === 0) return this.failed ? `the recording may be incomplete: the disk failed as it was closed (${this.failed.message})` : undefined;
    const why = [
      // A refused line always comes with the disk's error.
      ...(this.refused > 0 && this.failed ? [`${this.refused} refused: ${this.failed.message}`] : []),
      ...(this.behind > 0 ? [`${this.behind} dropped while more than ${this.maxBuffered} bytes were waiting for the disk`] : []),
    ];
    return `the recording is incomplete: ${dropped} exchange(s) not recorded (${why.join("; ")})`;
  }

  private line(passed: PassedExchange, redact: Redact): RecordedExchange {
    const token = bearerToken(headerValue(passed.requestHeaders, "authorization"));
    const request: Record<string, string> = {};
    for (const name of READ_HEADERS) {
      const value = headerValue(passed.requestHeaders, name);
      if (value !== undefined) request[name] = redact(value);
    }
    return {
      format: FORMAT,
      seq: ++this.seq,
      at: new Date(performance.timeOrigin + passed.startedAt).toISOString(),
      method: passed.method,
      target: redact(passed.target),
      operation: this.operation,
      request: { auth: this.authOf(token, headerValue(passed.requestHeaders, "authorization"), passed.status), headers: request, body: this.body(passed.requestBody, headerValue(passed.requestHeaders, "content-encoding"), redact) },
      response: { status: passed.status, headers: responseHeaders(passed.responseHeaders, redact), body: this.body(passed.responseBody, headerValue(passed.responseHeaders, "content-encoding"), redact) },
      durationMs: Math.round((passed.endedAt - passed.startedAt) * 10) / 10,
      findings: this.findings,
    };
  }

  /**
   * Whether the request carried the key. Without FILE_LIBRARY_API_KEY the proxy cannot compare: a bearer token the
   * service took (no 401 or 403) counts as the key.
   */
  private authOf(token: string | undefined, authorization: string | undefined, status: number): RecordedAuth {
    if (authorization === undefined) return "none";
    if (token !== undefined && (this.apiKey ? token === this.apiKey : status !== 401 && status !== 403)) return "key";
    return "other";
  }

  private body(body: CapturedBody, encoding: string | undefined, redact: Redact): RecordedBody | null {
    if (body.total === 0) return null;
    const decoded = decodeBody(body, encoding, this.maxBytes);
    if ("unchecked" in decoded) return { elided: decoded.unchecked, bytes: body.total };
    if (decoded.invalidUtf8 !== undefined) return { elided: "not UTF-8 text", bytes: body.total };
    return recordedText(redactJson(decoded.text, redact));
  }
}

/** The answer's headers as recorded: secret-named ones blanked, every secret redacted in the others. */
function responseHeaders(headers: Record<string, string | string[] | undefined>, redact: Redact): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NOT_RECORDED.has(name)) continue;
    out[name] = isSecretName(name) ? REDACTED : redact(Array.isArray(value) ? value.join(", ") : value);
  }
  return out;
}

/** A JSON text with secret-named fields blanked, as the reports do (src/redact.ts); any other text redacted as it is. */
function redactJson(text: string, redact: Redact): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return redact(text);
  }
  // Re-written only when a field is blanked: the app's own bytes are kept otherwise.
  if (!hasSecretName(value)) return redact(text);
  return redact(JSON.stringify(value, (key, item: unknown) => (key && isSecretName(key) && (item === null || typeof item !== "object") ? REDACTED : item)));
}

function hasSecretName(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([key, item]) => isSecretName(key) || hasSecretName(item));
}
