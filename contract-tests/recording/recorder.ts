import { constants, createWriteStream, fstatSync, open as openFile, statSync } from "node:fs";
import { Socket } from "node:net";
import type { Writable } from "node:stream";
import { once } from "node:events";
import { bearerToken } from "../../lib/bearer-token.ts";
import { headerValue } from "../../lib/openapi/request-inspection.ts";
import { isSecretName, REDACTED } from "../../src/redact.ts";
import { DRAIN_MS } from "../proxy/drain.ts";
import type { CapturedBody, PassedExchange } from "../proxy/forward.ts";
import type { JudgeEvents } from "../proxy/judge-traffic.ts";
import { decodeBody } from "../proxy/decode-body.ts";
import { blankSecretMembers, blankSecretQuery } from "../http/secret-members.ts";
import { SettingError } from "../run/settings.ts";
import {
  FORMAT,
  READ_HEADERS,
  recordedText,
  type RecordedAuth,
  type RecordedBody,
  type RecordedExchange,
} from "./format.ts";

/** Headers of one connection, or that the replay's own client sets: not recorded. */
const NOT_RECORDED = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "proxy-connection",
  "upgrade",
  "te",
  "trailer",
]);

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
  private seq = 0;
  private operation: string | null = null;
  private findings: RecordedExchange["findings"] = [];
  private failed: Error | undefined;
  /** Lines the disk refused (or that came after it did), and lines dropped while it was behind. */
  private refused = 0;
  private behind = 0;
  /** Lines handed to the stream that the disk has not taken yet; and, once close() gave up, how many it never took. */
  private pending = 0;
  private abandoned = 0;
  private gaveUp = false;
  private stopWaiting: (() => void) | undefined;
  private waitOver = false;

  private constructor(
    private readonly file: string,
    private readonly out: Writable,
    private readonly apiKey: string | undefined,
    private readonly maxBytes: number,
    private readonly maxBuffered: number,
  ) {
    this.out.on("error", (error) => (this.failed ??= error));
  }

  /** Opens (truncates) the recording; a file that cannot be written is a wrong setting (SettingError, exit 2). */
  static async open(
    file: string,
    options: { apiKey: string | undefined; maxBytes: number; maxBufferedBytes?: number },
  ): Promise<Recorder> {
    // A FIFO is opened without waiting: open() for writing blocks until a reader comes, and the proxy would never start
    // (nor stop: a signal does not end the wait). With no reader it fails at once (ENXIO), a setting error like another.
    const fifo = isFifo(file);
    const flags = fifo ? constants.O_WRONLY | constants.O_NONBLOCK : "w";
    const fd = await new Promise<number>((resolve, reject) =>
      openFile(file, flags, (error, opened) => (error ? reject(error) : resolve(opened))),
    ).catch((error: NodeJS.ErrnoException) => {
      const why =
        fifo && error.code === "ENXIO" ? "it is a FIFO that nothing reads: start its reader first" : error.message;
      throw new SettingError("--record", `cannot write ${JSON.stringify(file)}: ${why}`);
    });
    return new Recorder(
      file,
      writerOf(file, fd),
      options.apiKey,
      options.maxBytes,
      options.maxBufferedBytes ?? MAX_BUFFERED_BYTES,
    );
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
      if (this.failed) this.refused++, this.seq++;
      // A disk slower than the traffic: the line is dropped rather than held, and the recording says it is incomplete.
      // It still takes its seq: the numbers missing from the file show where the holes are.
      else if (this.out.writableLength > this.maxBuffered) this.behind++, this.seq++;
      // A line the disk then refuses (ENOSPC, EIO) is missing too. Its callback can come before the stream's 'error'
      // event (an fs stream emits it once the file is closed): the error is kept here too, for close() to name.
      else {
        this.pending++;
        this.out.write(`${redact(JSON.stringify(this.line(passed, redact)))}\n`, (error) => {
          this.pending--;
          // Once close() gave up on the destination, the lines it never took are counted there, not here.
          if (!error || this.gaveUp) return;
          this.refused++;
          this.failed ??= error;
        });
      }
    }
  }

  /**
   * Ends the file, waiting at most `waitMs` for the destination to take what is left (a pipe nobody reads, a stalled
   * disk: the proxy must still stop), or less once `giveUp()` is called; resolves with why exchanges are missing from
   * it (the disk refused them, fell behind, or stopped taking them), or undefined.
   */
  async close(waitMs = DRAIN_MS): Promise<string | undefined> {
    // Until the file is closed, not only ended: its own 'error' (a refused write, a failed close) comes after 'finish'.
    // An 'error' ends the wait too, the constructor's listener having kept it.
    if (!this.out.closed) {
      let timer: NodeJS.Timeout | undefined;
      const closed = Promise.all([once(this.out, "close"), this.out.end()]).then(
        () => true,
        () => true,
      );
      const gaveUp = new Promise<boolean>((resolve) => {
        this.stopWaiting = () => resolve(false);
        if (this.waitOver) resolve(false);
        timer = setTimeout(() => resolve(false), waitMs);
      });
      const inTime = await Promise.race([closed, gaveUp]);
      clearTimeout(timer);
      if (!inTime && !this.out.closed) {
        this.gaveUp = true;
        // The lines still waiting never reach the file; a write the destination holds stays held, but the proxy goes on.
        this.abandoned = this.pending;
        this.out.destroy();
        const seconds = Math.round(waitMs / 100) / 10;
        const why = this.waitOver
          ? "the proxy was stopped at once (a second signal)"
          : `it took no more within ${seconds} s`;
        // Every line taken, the file still not closed: nothing is known missing, nothing known safe.
        if (this.abandoned === 0)
          return `the recording may be incomplete: ${JSON.stringify(this.file)} did not close when the proxy stopped (${why})`;
        return `the recording is incomplete: ${this.abandoned + this.refused + this.behind} exchange(s) not recorded (${this.abandoned} still waiting for ${JSON.stringify(this.file)} when the proxy stopped: ${why})`;
      }
    }
    const dropped = this.refused + this.behind;
    if (dropped === 0)
      return this.failed
        ? `the recording may be incomplete: the disk failed as it was closed (${this.failed.message})`
        : undefined;
    const why = [
      // A refused line always comes with the disk's error.
      ...(this.refused > 0 && this.failed ? [`${this.refused} refused: ${this.failed.message}`] : []),
      ...(this.behind > 0
        ? [`${this.behind} dropped while more than ${this.maxBuffered} bytes were waiting for the disk`]
        : []),
    ];
    return `the recording is incomplete: ${dropped} exchange(s) not recorded (${why.join("; ")})`;
  }

  /** Ends a close() under way without waiting any longer for the destination (a second Ctrl-C). */
  giveUp(): void {
    this.waitOver = true;
    this.stopWaiting?.();
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
      target: redact(blankSecretQuery(passed.target)),
      operation: this.operation,
      request: {
        auth: this.authOf(token, headerValue(passed.requestHeaders, "authorization"), passed.status),
        headers: request,
        body: this.body(passed.requestBody, passed.requestHeaders, redact),
      },
      response: {
        status: passed.status,
        headers: responseHeaders(passed.responseHeaders, redact),
        body: this.body(passed.responseBody, passed.responseHeaders, redact),
      },
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

  private body(body: CapturedBody, headers: PassedExchange["requestHeaders"], redact: Redact): RecordedBody | null {
    if (body.total === 0) return null;
    const decoded = decodeBody(body, headerValue(headers, "content-encoding"), this.maxBytes);
    if ("unchecked" in decoded) return { elided: decoded.unchecked, bytes: body.total };
    if (decoded.invalidUtf8 !== undefined) return { elided: "not UTF-8 text", bytes: body.total };
    return recordedText(redact(blankSecretMembers(decoded.text, headerValue(headers, "content-type"))));
  }
}

/** Whether `file` exists and is a FIFO (a named pipe). */
function isFifo(file: string): boolean {
  try {
    return statSync(file).isFIFO();
  } catch {
    return false;
  }
}

/**
 * The stream the lines go to. A pipe (a FIFO, `--record >(gzip > x)`) or a socket is written through the event loop,
 * as process.stdout is: a reader that stops reading then holds lines in memory, never a thread of libuv's pool in a
 * blocking write(), which Node waits for as the process exits (the proxy would hang at its end). A file as a file.
 */
function writerOf(file: string, fd: number): Writable {
  const info = fstatSync(fd);
  return info.isFIFO() || info.isSocket()
    ? new Socket({ fd, readable: false, writable: true })
    : createWriteStream(file, { fd });
}

/** The answer's headers as recorded: secret-named ones blanked, every secret redacted in the others. */
function responseHeaders(
  headers: Record<string, string | string[] | undefined>,
  redact: Redact,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NOT_RECORDED.has(name)) continue;
    out[name] = isSecretName(name) ? REDACTED : redact(Array.isArray(value) ? value.join(", ") : value);
  }
  return out;
}
