import { createHash } from "node:crypto";
import type { Dispatcher } from "undici";
import { createRouter } from "../../lib/openapi/router.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { restorableState, stateOf } from "../checks/file-state.ts";
import { curlFor, type ShownRequest } from "../http/curl.ts";
import { authorizationFor, WRONG_API_KEY, type AuthMode } from "../inputs/keys.ts";
import { decodeBody } from "../proxy/decode-body.ts";
import type { CapturedBody } from "../proxy/forward.ts";
import { TrafficJudge, type JudgeEvents, type ProxyFinding } from "../proxy/judge-traffic.ts";
import { consumerProblems } from "./consumer-contract.ts";
import type { RecordedAuth, RecordedExchange } from "./format.ts";
import { readRecording, RecordingError } from "./read-recording.ts";

/** How to replay a recording. */
export interface ReplayOptions {
  file: string;
  /** The deployment's base URL, parsed. */
  baseUrl: string;
  apiKey: string;
  /** Replay updates too, and put each file they touch back afterwards. */
  writeChecks: boolean;
  /** The most distinct requests sent (the request budget); duplicates are not sent, so do not count. */
  maxRequests: number;
  spec: OpenApiValidator;
  limits: { maxResponseMs: number; maxResponseBytes: number; requestTimeoutMs: number };
  /** Where a line goes for each break as it is found. */
  say: (line: string) => void;
  /** Aborted (Ctrl-C): no further request is sent; the files already written are put back, and the run stops. */
  signal?: AbortSignal | undefined;
}

/** One way a replayed exchange broke the contract: the spec's (service) or the app's (consumer). */
export interface ReplayBreak {
  /** The exchange: its line of the recording (its entry of a HAR), method and target. */
  line: number;
  method: string;
  target: string;
  operation: string;
  /** The status the app got. */
  status: number;
  side: "service" | "consumer";
  check: string;
  problem: string;
  /** The request again, against the deployment, the key from $FILE_LIBRARY_API_KEY. */
  curl: string;
}

/** What the app used of one operation with one status, and how the deployment served it. */
export interface ReplayRow {
  operation: string;
  /** The status the app got. */
  status: number;
  /** Exchanges of the recording. */
  recorded: number;
  /** Identical to one replayed before: not sent again. */
  duplicates: number;
  replayed: number;
  held: number;
  broke: number;
  /** Updates not sent: a read-only replay (no --write-checks). */
  leftOutReadOnly: number;
  /** Not sent: the request budget (--max-requests) was spent. */
  leftOutBudget: number;
  /** Not sent: the recording kept no body to send. */
  leftOutNoBody: number;
}

/** One failing check of one operation, on one side, once: how many breaks it had, and the first of them. */
export interface FailedCheck {
  side: ReplayBreak["side"];
  operation: string;
  check: string;
  count: number;
  first: ReplayBreak;
}

/** What a replay found. */
export interface ReplayResult {
  /**
   * Set when an answer's metadata had the shape of the service's own OpenAPI document: the one line that says why the
   * metadata's checks fail (checks/service-document-shape.ts), said before the first break.
   */
  diagnosis?: string | undefined;
  /** Each failing check once per operation and side, with its count (every break counted, kept or not). */
  failedChecks: FailedCheck[];
  /** 0 every replayed exchange held; 1 one broke; 2 the replay could not start or finish (`stopped`). */
  exitCode: 0 | 1 | 2;
  exchanges: number;
  /** Exchanges to paths that are not the File Library's (or CORS preflights): not replayed. */
  notFileLibrary: number;
  duplicates: number;
  replayed: number;
  rows: ReplayRow[];
  breaks: ReplayBreak[];
  /** Breaks past the ones kept (counted only). */
  breaksLeftOut: number;
  /** Why the replay stopped: it could not start (`atStart`), or could not finish. */
  stopped?: { reason: string; atStart: boolean } | undefined;
  /** What the replay did not send, in words (read-only, the budget, bodies not recorded). */
  leftOut: string[];
}

/** The replay cannot start: one line for exit 2. */
export class ReplayStartError extends Error {
  override name = "ReplayStartError";
}

const BREAKS_KEPT = 50;
/** Distinct requests past the budget kept (as digests) to tell their repeats apart; past these, each is counted as one. */
const LEFT_OUT_KEPT = 100_000;
const REFUSED_KEY = new Set([401, 403]);
const AUTH_MODES: Record<RecordedAuth, AuthMode> = { key: "valid", other: "wrong", none: "none" };

/**
 * Replays a recording against a deployment (docs/recording-format.md): each distinct request once, in the recorded
 * order, each answer judged by the spec with the proxy's own judge (its service-side findings) and against what the
 * app got (consumerProblems). Streams the recording: what it keeps grows with the distinct requests sent (at most
 * `maxRequests`) and the files written, never with the recording's length.
 */
export async function replayRecording(options: ReplayOptions): Promise<ReplayResult> {
  return new Replay(options).run();
}

type Metadata = Record<string, unknown> & { labels: string[] };

/** A request of the recording as it was sent again, for judging its answer. */
interface SentRequest {
  line: number;
  operation: string;
  exchange: RecordedExchange;
  headers: Record<string, string>;
  text: string | undefined;
  /** What the judge returned as the request was sent (TrafficJudge.requestArrived). */
  token: unknown;
  startedAt: number;
}

/** One replay's state: what was sent, what was left out, the files to put back, and the result as it grows. */
class Replay {
  private readonly route: ReturnType<typeof createRouter>;
  private readonly judge: TrafficJudge;
  private readonly result: ReplayResult = {
    exitCode: 0,
    exchanges: 0,
    notFileLibrary: 0,
    duplicates: 0,
    replayed: 0,
    rows: [],
    breaks: [],
    breaksLeftOut: 0,
    leftOut: [],
    failedChecks: [],
  };
  private readonly failedChecks = new Map<string, FailedCheck>();
  private readonly rows = new Map<string, ReplayRow>();
  private readonly sent = new Set<string>();
  // The distinct requests the budget left out: their repeats are duplicates too (counted, up to LEFT_OUT_KEPT of them).
  private readonly leftOut = new Set<string>();
  private untold = false;
  // Per file, how many updates of it the replay sent: a request after one is never a duplicate of one before it.
  private readonly writesSent = new Map<string, number>();
  // Each file an update touched, its state before the first, and that update's line: put back at the end.
  private readonly baselines = new Map<string, { before: Metadata; line: number }>();
  private keyChecked = false;
  private agent: Dispatcher | undefined;
  private readonly send: Send = (method, target, headers, body) =>
    sendOnce(this.agent!, this.options.baseUrl, method, target, headers, body, this.options.limits.maxResponseBytes);

  constructor(private readonly options: ReplayOptions) {
    const { spec, baseUrl, limits } = options;
    this.route = createRouter(spec);
    const diagnosis = (line: string) => {
      this.result.diagnosis = line;
      options.say(`DIAGNOSIS: ${line}`);
    };
    // Findings come back from each judge() call (breaksOf); only the diagnosis is told as it happens.
    const events: JudgeEvents = {
      finding: () => {},
      warning: () => {},
      seen: () => {},
      notChecked: () => {},
      preflight: () => {},
      diagnosis,
    };
    this.judge = new TrafficJudge(
      spec,
      baseUrl,
      { maxResponseMs: limits.maxResponseMs, maxResponseBytes: limits.maxResponseBytes },
      events,
      options.apiKey,
    );
  }

  /** Replays the whole recording, puts back the files it updated, and sums it up. */
  async run(): Promise<ReplayResult> {
    const { limits } = this.options;
    const { Agent } = await import("undici");
    this.agent = new Agent({ headersTimeout: limits.requestTimeoutMs, bodyTimeout: limits.requestTimeoutMs });
    try {
      await this.replayAll();
    } catch (error) {
      this.stopOn(error);
    } finally {
      await this.agent.close();
    }
    return this.summary();
  }

  private matches(method: string, target: string): string | undefined {
    return this.route(method, target.split("?", 1)[0]!)?.operationId;
  }

  private async replayAll(): Promise<void> {
    const { spec } = this.options;
    for await (const { line, exchange } of readRecording(
      this.options.file,
      (method, target) => this.matches(method, target),
      (operation) => spec.requiresAuth(operation),
    )) {
      if (this.options.signal?.aborted) {
        this.result.stopped = {
          reason: `interrupted before line ${line}: the rest of the recording was not replayed`,
          atStart: false,
        };
        break;
      }
      await this.replayOne(line, exchange);
    }
    for (const [fileId, { before, line }] of this.baselines)
      await putBack(this.send, spec, { fileId, before, line }, this.options.apiKey, this.options.baseUrl, (b) =>
        this.breakOf(b),
      );
  }

  /** Replays one exchange of the recording, unless it is left out; its breaks are told as found. */
  private async replayOne(line: number, exchange: RecordedExchange): Promise<void> {
    this.result.exchanges++;
    const operation = this.matches(exchange.method, exchange.target);
    if (operation === undefined || (exchange.method === "OPTIONS" && exchange.operation === null)) {
      this.result.notFileLibrary++;
      return;
    }
    const row = rowOf(this.rows, operation, exchange.response.status);
    row.recorded++;
    const fileId = this.route(exchange.method, exchange.target.split("?", 1)[0]!)?.params.file_id;
    const isUpdate = this.options.spec.operation(operation).method !== "GET";
    const key = requestKey(exchange, fileId === undefined ? 0 : (this.writesSent.get(fileId) ?? 0));
    if (this.leftOutAs(row, key, isUpdate, exchange.request.body)) return;
    this.sent.add(key);
    if (isUpdate && fileId !== undefined) await this.noteUpdate(fileId, line);
    const request = this.sendAgain(line, operation, exchange);
    const answer = await this.send(exchange.method, exchange.target, request.headers, request.text).catch(
      (error: Error) => {
        throw new CannotFinish(
          `the deployment did not answer ${exchange.method} ${this.judge.redact(exchange.target)} (line ${line}): ${this.judge.redact(error.message)}`,
        );
      },
    );
    this.result.replayed++;
    row.replayed++;
    this.checkKey(exchange, answer);
    const breaks = this.breaksOf(request, answer);
    if (breaks.length === 0) row.held++;
    else row.broke++;
    for (const b of breaks) this.breakOf(b);
  }

  /** Whether a request is not sent, counted in its row: a duplicate, an update of a read-only replay, no body kept, or past the budget. */
  private leftOutAs(
    row: ReplayRow,
    key: string,
    isUpdate: boolean,
    body: RecordedExchange["request"]["body"],
  ): boolean {
    if (this.sent.has(key) || this.leftOut.has(key)) {
      row.duplicates++;
      this.result.duplicates++;
      return true;
    }
    if (isUpdate && !this.options.writeChecks) {
      row.leftOutReadOnly++;
      return true;
    }
    if (body !== null && !("text" in body)) {
      row.leftOutNoBody++;
      return true;
    }
    if (this.sent.size < this.options.maxRequests) return false;
    row.leftOutBudget++;
    if (this.leftOut.size < LEFT_OUT_KEPT) this.leftOut.add(key);
    else this.untold = true;
    return true;
  }

  /** An update of a file is about to be sent: counted, and the file's state read before the first one, to put it back. */
  private async noteUpdate(fileId: string, line: number): Promise<void> {
    this.writesSent.set(fileId, (this.writesSent.get(fileId) ?? 0) + 1);
    if (this.baselines.has(fileId)) return;
    const before = await readFileMetadata(this.send, this.options.spec, fileId, this.options.apiKey);
    if (before) this.baselines.set(fileId, { before, line });
  }

  /** The recorded request as it is sent again: the key (or the wrong one) in place of what the app sent; told to the judge. */
  private sendAgain(line: number, operation: string, exchange: RecordedExchange): SentRequest {
    const requestBody = exchange.request.body;
    const headers: Record<string, string> = { ...exchange.request.headers };
    const authorization = authorizationFor(AUTH_MODES[exchange.request.auth], this.options.apiKey);
    if (authorization !== undefined) headers.authorization = authorization;
    const text = requestBody === null ? undefined : (requestBody as { text: string }).text;
    const startedAt = performance.now();
    const token = this.judge.requestArrived(exchange.method, exchange.target, startedAt);
    return { line, operation, exchange, headers, text, token, startedAt };
  }

  /** The first request with the key that the server refuses, where the app was not refused: the key is wrong (exit 2). */
  private checkKey(exchange: RecordedExchange, answer: Sent): void {
    if (this.keyChecked || exchange.request.auth !== "key") return;
    this.keyChecked = true;
    if (REFUSED_KEY.has(answer.status) && !REFUSED_KEY.has(exchange.response.status)) {
      throw new ReplayStartError(
        `the server refused FILE_LIBRARY_API_KEY (HTTP ${answer.status} to ${exchange.method} ${this.judge.redact(exchange.target)}, which the app got ${exchange.response.status} for): check that the key is current and meant for ${this.options.baseUrl} (--base-url).`,
      );
    }
  }

  /** The breaks of one replayed exchange: the judge's findings on the deployment's answer, then what the app did not get. */
  private breaksOf(request: SentRequest, answer: Sent): ReplayBreak[] {
    const { line, operation, exchange, headers, text, token, startedAt } = request;
    const textBytes = text === undefined ? new Uint8Array(0) : Buffer.from(text);
    const found = this.judge.judge({
      token,
      method: exchange.method,
      target: exchange.target,
      requestHeaders: headers,
      requestBody: { bytes: textBytes, total: textBytes.length, cut: false },
      status: answer.status,
      responseHeaders: answer.headers,
      responseBody: answer.body,
      startedAt,
      endedAt: performance.now(),
    });
    const shown = showRequest(this.options.baseUrl, exchange, headers, text, this.judge);
    const at = { line, method: exchange.method, target: shown.path, operation, status: exchange.response.status };
    const breaks: ReplayBreak[] = [];
    // The app's own findings are the app's (recorded with the exchange), not the deployment's.
    for (const f of found.filter((f) => f.side !== "app"))
      breaks.push({ ...at, side: "service", check: f.check, problem: f.problem, curl: f.curl });
    const decoded = decodeBody(
      answer.body,
      headerOf(answer.headers, "content-encoding"),
      this.options.limits.maxResponseBytes,
    );
    for (const problem of consumerProblems(operation, exchange.response, {
      status: answer.status,
      text: "text" in decoded ? decoded.text : undefined,
    })) {
      breaks.push({
        ...at,
        side: "consumer",
        check: "as_the_app_saw_it",
        problem: this.judge.redact(problem),
        curl: this.judge.redact(curlFor(shown)),
      });
    }
    return breaks;
  }

  /** Keeps a break (up to BREAKS_KEPT), counts it under its failing check, and says the check the first time it fails. */
  private breakOf(found: ReplayBreak): void {
    // Every break's text redacted once more here: a restore's problem names labels, which may hold a secret.
    const b = {
      ...found,
      target: this.judge.redact(found.target),
      problem: this.judge.redact(found.problem),
      curl: this.judge.redact(found.curl),
    };
    if (this.result.breaks.length < BREAKS_KEPT) this.result.breaks.push(b);
    else this.result.breaksLeftOut++;
    // Each failing check is said once, as it first breaks; its count is the summary's (not one line per exchange).
    const kind = `${b.side} ${b.operation} ${b.check}`;
    const known = this.failedChecks.get(kind);
    if (known) {
      known.count++;
      return;
    }
    this.failedChecks.set(kind, { side: b.side, operation: b.operation, check: b.check, count: 1, first: b });
    this.options.say(
      `BREAK (${b.side}) line ${b.line}: ${b.method} ${b.target} ${b.check}: ${b.problem}\n    reproduce: ${b.curl}`,
    );
  }

  /** Why the replay stopped, from what it threw; anything else is a bug, thrown on. */
  private stopOn(error: unknown): void {
    if (error instanceof RecordingError || error instanceof ReplayStartError) {
      // A bad line after some were replayed: what was read may be replayed, but the whole was not (exit 2).
      this.result.stopped = {
        reason: error.message,
        atStart: this.result.replayed === 0 || error instanceof ReplayStartError,
      };
    } else if (error instanceof CannotFinish) this.result.stopped = { reason: error.message, atStart: false };
    else throw error;
  }

  /** The result: rows, failing checks, what was left out in words, and the exit code. */
  private summary(): ReplayResult {
    const { result, options } = this;
    result.rows = [...this.rows.values()];
    result.failedChecks = [...this.failedChecks.values()];
    const total = (field: keyof ReplayRow) => result.rows.reduce((n, row) => n + (row[field] as number), 0);
    if (total("leftOutReadOnly") > 0)
      result.leftOut.push(
        `${total("leftOutReadOnly")} update(s) not replayed: a read-only replay (give --write-checks to replay them; each file is put back afterwards)`,
      );
    if (total("leftOutNoBody") > 0)
      result.leftOut.push(
        `${total("leftOutNoBody")} request(s) not replayed: the recording kept no body to send (over its cap, or not text)`,
      );
    if (total("leftOutBudget") > 0) {
      const past = !this.untold ? "" : ` (past the first ${LEFT_OUT_KEPT}, repeats are not told apart)`;
      result.leftOut.push(
        `${total("leftOutBudget")} distinct request(s) not replayed${past}: the request budget of ${options.maxRequests} (--max-requests) was spent`,
      );
      result.stopped ??= {
        reason: `the request budget of ${options.maxRequests} distinct requests (--max-requests) was spent before the recording's end: ${total("leftOutBudget")} request(s) not replayed; raise --max-requests`,
        atStart: false,
      };
    }
    result.exitCode =
      result.breaks.length + result.breaksLeftOut > 0 && !result.stopped?.atStart ? 1 : result.stopped ? 2 : 0;
    return result;
  }
}

/** The replay could not go on (the deployment stopped answering): exit 2. */
class CannotFinish extends Error {}

function rowOf(rows: Map<string, ReplayRow>, operation: string, status: number): ReplayRow {
  const key = `${operation} ${status}`;
  let row = rows.get(key);
  if (!row)
    rows.set(
      key,
      (row = {
        operation,
        status,
        recorded: 0,
        duplicates: 0,
        replayed: 0,
        held: 0,
        broke: 0,
        leftOutReadOnly: 0,
        leftOutBudget: 0,
        leftOutNoBody: 0,
      }),
    );
  return row;
}

/**
 * What makes two requests identical: method, target, key, the headers the service reads, the body, and how many
 * updates of their file the replay had sent before them (a read after an update asks anew: docs/recording-format.md).
 */
export function requestKey(exchange: RecordedExchange, writesBefore = 0): string {
  const { auth, headers, body } = exchange.request;
  const sortedHeaders = Object.keys(headers)
    .sort()
    .map((name) => [name, headers[name]]);
  return createHash("sha256")
    .update(JSON.stringify([exchange.method, exchange.target, auth, sortedHeaders, body, writesBefore]))
    .digest("base64");
}

const headerOf = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};

/** The replayed request as the reports show it: curl takes the key from $FILE_LIBRARY_API_KEY. */
function showRequest(
  baseUrl: string,
  exchange: RecordedExchange,
  headers: Record<string, string>,
  body: string | undefined,
  judge: TrafficJudge,
): ShownRequest {
  const shownHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    shownHeaders[name] = name === "authorization" ? "Bearer [REDACTED]" : judge.redact(value);
  if (exchange.request.auth === "other") shownHeaders.authorization = `Bearer ${WRONG_API_KEY}`;
  return {
    auth: AUTH_MODES[exchange.request.auth],
    method: exchange.method,
    path: judge.redact(exchange.target.split("?", 1)[0]!),
    url: `${baseUrl}${judge.redact(exchange.target)}`,
    headers: shownHeaders,
    ...(body === undefined ? {} : { body: judge.redact(body) }),
  };
}

/** An answer of the deployment: status, headers, and the first bytes of its body as they came (still encoded). */
interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: CapturedBody;
}

/** Sends one request with undici, as the proxy forwards: the body's bytes kept as they came, up to `maxBytes`. */
async function sendOnce(
  agent: Dispatcher,
  baseUrl: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body: string | undefined,
  maxBytes: number,
): Promise<Sent> {
  const url = new URL(baseUrl);
  const answer = await agent.request({
    origin: url.origin,
    path: `${url.pathname.replace(/\/+$/, "")}${target}`,
    method: method as Dispatcher.HttpMethod,
    headers,
    body: body ?? null,
  });
  const kept: Buffer[] = [];
  let total = 0;
  for await (const chunk of answer.body as AsyncIterable<Buffer>) {
    if (total < maxBytes) kept.push(chunk.subarray(0, maxBytes - total));
    total += chunk.length;
  }
  return {
    status: answer.statusCode,
    headers: answer.headers,
    body: { bytes: Buffer.concat(kept), total, cut: total > maxBytes },
  };
}

type Send = (
  method: string,
  target: string,
  headers: Record<string, string>,
  body: string | undefined,
) => Promise<Sent>;

const metadataPath = (spec: OpenApiValidator, operationId: string, fileId: string) =>
  spec.operation(operationId).path.replace("{file_id}", encodeURIComponent(fileId));

/** The file's metadata, read with the key before the first update of it (undefined when it cannot be read). */
async function readFileMetadata(
  send: Send,
  spec: OpenApiValidator,
  fileId: string,
  apiKey: string,
): Promise<(Record<string, unknown> & { labels: string[] }) | undefined> {
  const answer = await send(
    "GET",
    metadataPath(spec, "getFile", fileId),
    { authorization: `Bearer ${apiKey}` },
    undefined,
  );
  if (answer.status !== 200 || answer.body.cut) return undefined;
  try {
    const metadata = JSON.parse(Buffer.from(answer.body.bytes).toString("utf8")) as Record<string, unknown>;
    return Array.isArray(metadata.labels) ? (metadata as Record<string, unknown> & { labels: string[] }) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Puts a file the replay updated back as it found it (labels and publicUrl, as the suite's write checks do:
 * checks/file-state.ts), then reads it again: a file left changed is a break on the line of the replay's first update
 * of it, with the curl command that puts it back.
 */
async function putBack(
  send: Send,
  spec: OpenApiValidator,
  touched: { fileId: string; before: Record<string, unknown> & { labels: string[] }; line: number },
  apiKey: string,
  baseUrl: string,
  breakOf: (b: ReplayBreak) => void,
): Promise<void> {
  const { fileId, before, line } = touched;
  const state = restorableState({ spec }, before);
  const path = metadataPath(spec, "updateFile", fileId);
  const { method } = spec.operation("updateFile");
  const body = JSON.stringify(state);
  const put = await send(
    method,
    path,
    { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body,
  ).catch(() => undefined);
  const now =
    put?.status === 200 ? await readFileMetadata(send, spec, fileId, apiKey).catch(() => undefined) : undefined;
  const wanted = stateOf({ ...before, ...state });
  if (now && JSON.stringify(stateOf(now)) === JSON.stringify(wanted)) return;
  const curl = curlFor({
    auth: "valid",
    method,
    path,
    url: `${baseUrl}${path}`,
    headers: { authorization: "Bearer [REDACTED]", "content-type": "application/json" },
    body,
  });
  // The whole story in the problem itself: reports that show no curl command (replay-summary.md) still tell it.
  const outcome = !put
    ? "the update that puts it back got no answer"
    : put.status !== 200
      ? `the update that puts it back got HTTP ${put.status}`
      : now
        ? `the update that puts it back got HTTP 200, then a read showed ${JSON.stringify(stateOf(now))}`
        : "the update that puts it back got HTTP 200, then the file could not be read";
  breakOf({
    line,
    method,
    target: path,
    operation: "updateFile",
    status: 200,
    side: "service",
    check: "file_left_as_found",
    problem: `the replay could not put file ${JSON.stringify(fileId)} back as it found it, ${JSON.stringify(wanted)}: ${outcome}; it ${now ? "is" : "may be"} left changed since line ${line}`,
    curl,
  });
}
