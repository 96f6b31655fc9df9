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
  const { spec, baseUrl, limits } = options;
  const route = createRouter(spec);
  const matches = (method: string, target: string) => route(method, target.split("?", 1)[0]!)?.operationId;
  const found: ProxyFinding[] = [];
  const result: ReplayResult = { exitCode: 0, exchanges: 0, notFileLibrary: 0, duplicates: 0, replayed: 0, rows: [], breaks: [], breaksLeftOut: 0, leftOut: [], failedChecks: [] };
  const diagnosis = (line: string) => {
    result.diagnosis = line;
    options.say(`DIAGNOSIS: ${line}`);
  };
  const events: JudgeEvents = { finding: (f) => found.push(f), warning: () => {}, seen: () => {}, notChecked: () => {}, preflight: () => {}, diagnosis };
  const judge = new TrafficJudge(spec, baseUrl, { maxResponseMs: limits.maxResponseMs, maxResponseBytes: limits.maxResponseBytes }, events, options.apiKey);
  const { Agent } = await import("undici");
  const agent = new Agent({ headersTimeout: limits.requestTimeoutMs, bodyTimeout: limits.requestTimeoutMs });
  const failedChecks = new Map<string, FailedCheck>();
  const rows = new Map<string, ReplayRow>();
  const sent = new Set<string>();
  // The distinct requests the budget left out: their repeats are duplicates too (counted, up to LEFT_OUT_KEPT of them).
  const leftOut = new Set<string>();
  let untold = false;
  // Per file, how many updates of it the replay sent: a request after one is never a duplicate of one before it.
  const writesSent = new Map<string, number>();
  // Each file an update touched, its state before the first, and that update's line: put back at the end.
  const baselines = new Map<string, { before: Record<string, unknown> & { labels: string[] }; line: number }>();
  let keyChecked = false;

  const send = (method: string, target: string, headers: Record<string, string>, body: string | undefined) => sendOnce(agent, baseUrl, method, target, headers, body, limits.maxResponseBytes);
  const breakOf = (found: ReplayBreak) => {
    // Every break's text redacted once more here: a restore's problem names labels, which may hold a secret.
    const b = { ...found, target: judge.redact(found.target), problem: judge.redact(found.problem), curl: judge.redact(found.curl) };
    if (result.breaks.length < BREAKS_KEPT) result.breaks.push(b);
    else result.breaksLeftOut++;
    // Each failing check is said once, as it first breaks; its count is the summary's (not one line per exchange).
    const kind = `${b.side} ${b.operation} ${b.check}`;
    const known = failedChecks.get(kind);
    if (known) {
      known.count++;
      return;
    }
    failedChecks.set(kind, { side: b.side, operation: b.operation, check: b.check, count: 1, first: b });
    options.say(`BREAK (${b.side}) line ${b.line}: ${b.method} ${b.target} ${b.check}: ${b.problem}\n    reproduce: ${b.curl}`);
  };

  try {
    for await (const { line, exchange } of readRecording(options.file, matches, (operation) => spec.requiresAuth(operation))) {
      if (options.signal?.aborted) {
        result.stopped = { reason: `interrupted before line ${line}: the rest of the recording was not replayed`, atStart: false };
        break;
      }
      result.exchanges++;
      const operation = matches(exchange.method, exchange.target);
      if (operation === undefined || (exchange.method === "OPTIONS" && exchange.operation === null)) {
        result.notFileLibrary++;
        continue;
      }
      const row = rowOf(rows, operation, exchange.response.status);
      row.recorded++;
      const requestBody = exchange.request.body;
      const fileId = route(exchange.method, exchange.target.split("?", 1)[0]!)?.params.file_id;
      const isUpdate = spec.operation(operation).method !== "GET";
      const key = requestKey(exchange, fileId === undefined ? 0 : (writesSent.get(fileId) ?? 0));
      if (sent.has(key) || leftOut.has(key)) {
        row.duplicates++;
        result.duplicates++;
        continue;
      }
      if (isUpdate && !options.writeChecks) {
        row.leftOutReadOnly++;
        continue;
      }
      if (requestBody !== null && !("text" in requestBody)) {
        row.leftOutNoBody++;
        continue;
      }
      if (sent.size >= options.maxRequests) {
        row.leftOutBudget++;
        if (leftOut.size < LEFT_OUT_KEPT) leftOut.add(key);
        else untold = true;
        continue;
      }
      sent.add(key);
      if (isUpdate && fileId !== undefined) {
        writesSent.set(fileId, (writesSent.get(fileId) ?? 0) + 1);
        if (!baselines.has(fileId)) {
          const before = await readFileMetadata(send, spec, fileId, options.apiKey);
          if (before) baselines.set(fileId, { before, line });
        }
      }

      const headers: Record<string, string> = { ...exchange.request.headers };
      const authorization = authorizationFor(AUTH_MODES[exchange.request.auth], options.apiKey);
      if (authorization !== undefined) headers.authorization = authorization;
      const text = requestBody === null ? undefined : (requestBody as { text: string }).text;
      const startedAt = performance.now();
      const token = judge.requestArrived(exchange.method, exchange.target, startedAt);
      const answer = await send(exchange.method, exchange.target, headers, text).catch((error: Error) => {
        throw new CannotFinish(`the deployment did not answer ${exchange.method} ${judge.redact(exchange.target)} (line ${line}): ${judge.redact(error.message)}`);
      });
      result.replayed++;
      row.replayed++;
      if (!keyChecked && exchange.request.auth === "key") {
        keyChecked = true;
        if (REFUSED_KEY.has(answer.status) && !REFUSED_KEY.has(exchange.response.status)) {
          throw new ReplayStartError(
            `the server refused FILE_LIBRARY_API_KEY (HTTP ${answer.status} to ${exchange.method} ${judge.redact(exchange.target)}, which the app got ${exchange.response.status} for): check that the key is current and meant for ${baseUrl} (--base-url).`,
          );
        }
      }
      found.length = 0;
      const textBytes = text === undefined ? new Uint8Array(0) : Buffer.from(text);
      judge.judge({
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
      const shown = showRequest(baseUrl, exchange, headers, text, judge);
      const breaks: ReplayBreak[] = [];
      // The app's own findings are the app's (recorded with the exchange), not the deployment's.
      for (const f of found.filter((f) => f.side !== "app")) breaks.push({ line, method: exchange.method, target: shown.path, operation, status: exchange.response.status, side: "service", check: f.check, problem: f.problem, curl: f.curl });
      const decoded = decodeBody(answer.body, headerOf(answer.headers, "content-encoding"), limits.maxResponseBytes);
      for (const problem of consumerProblems(operation, exchange.response, { status: answer.status, text: "text" in decoded ? decoded.text : undefined })) {
        breaks.push({ line, method: exchange.method, target: shown.path, operation, status: exchange.response.status, side: "consumer", check: "as_the_app_saw_it", problem: judge.redact(problem), curl: judge.redact(curlFor(shown)) });
      }
      if (breaks.length === 0) row.held++;
      else row.broke++;
      for (const b of breaks) breakOf(b);
    }
    for (const [fileId, { before, line }] of baselines) await putBack(send, spec, { fileId, before, line }, options.apiKey, baseUrl, breakOf);
  } catch (error) {
    if (error instanceof RecordingError || error instanceof ReplayStartError) {
      // A bad line after some were replayed: what was read may be replayed, but the whole was not (exit 2).
      result.stopped = { reason: error.message, atStart: result.replayed === 0 || error instanceof ReplayStartError };
    } else if (error instanceof CannotFinish) result.stopped = { reason: error.message, atStart: false };
    else throw error;
  } finally {
    await agent.close();
  }

  result.rows = [...rows.values()];
  result.failedChecks = [...failedChecks.values()];
  const total = (field: keyof ReplayRow) => result.rows.reduce((n, row) => n + (row[field] as number), 0);
  if (total("leftOutReadOnly") > 0) result.leftOut.push(`${total("leftOutReadOnly")} update(s) not replayed: a read-only replay (give --write-checks to replay them; each file is put back afterwards)`);
  if (total("leftOutNoBody") > 0) result.leftOut.push(`${total("leftOutNoBody")} request(s) not replayed: the recording kept no body to send (over its cap, or not text)`);
  if (total("leftOutBudget") > 0) {
    const past = !untold ? "" : ` (past the first ${LEFT_OUT_KEPT}, repeats are not told apart)`;
    result.leftOut.push(`${total("leftOutBudget")} distinct request(s) not replayed${past}: the request budget of ${options.maxRequests} (--max-requests) was spent`);
    result.stopped ??= { reason: `the request budget of ${options.maxRequests} distinct requests (--max-requests) was spent before the recording's end: ${total("leftOutBudget")} request(s) not replayed; raise --max-requests`, atStart: false };
  }
  result.exitCode = result.breaks.length + result.breaksLeftOut > 0 && !result.stopped?.atStart ? 1 : result.stopped ? 2 : 0;
  return result;
}

/** The replay could not go on (the deployment stopped answering): exit 2. */
class CannotFinish extends Error {}

function rowOf(rows: Map<string, ReplayRow>, operation: string, status: number): ReplayRow {
  const key = `${operation} ${status}`;
  let row = rows.get(key);
  if (!row) rows.set(key, (row = { operation, status, recorded: 0, duplicates: 0, replayed: 0, held: 0, broke: 0, leftOutReadOnly: 0, leftOutBudget: 0, leftOutNoBody: 0 }));
  return row;
}

/**
 * What makes two requests identical: method, target, key, the headers the service reads, the body, and how many
 * updates of their file the replay had sent before them (a read after an update asks anew: docs/recording-format.md).
 */
export function requestKey(exchange: RecordedExchange, writesBefore = 0): string {
  const { auth, headers, body } = exchange.request;
  const sortedHeaders = Object.keys(headers).sort().map((name) => [name, headers[name]]);
  return createHash("sha256").update(JSON.stringify([exchange.method, exchange.target, auth, sortedHeaders, body, writesBefore])).digest("base64");
}

const headerOf = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
};

/** The replayed request as the reports show it: curl takes the key from $FILE_LIBRARY_API_KEY. */
function showRequest(baseUrl: string, exchange: RecordedExchange, headers: Record<string, string>, body: string | undefined, judge: TrafficJudge): ShownRequest {
  const shownHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) shownHeaders[name] = name === "authorization" ? "Bearer [REDACTED]" : judge.redact(value);
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
async function sendOnce(agent: Dispatcher, baseUrl: string, method: string, target: string, headers: Record<string, string>, body: string | undefined, maxBytes: number): Promise<Sent> {
  const url = new URL(baseUrl);
  const answer = await agent.request({ origin: url.origin, path: `${url.pathname.replace(/\/+$/, "")}${target}`, method: method as Dispatcher.HttpMethod, headers, body: body ?? null });
  const kept: Buffer[] = [];
  let total = 0;
  for await (const chunk of answer.body as AsyncIterable<Buffer>) {
    if (total < maxBytes) kept.push(chunk.subarray(0, maxBytes - total));
    total += chunk.length;
  }
  return { status: answer.statusCode, headers: answer.headers, body: { bytes: Buffer.concat(kept), total, cut: total > maxBytes } };
}

type Send = (method: string, target: string, headers: Record<string, string>, body: string | undefined) => Promise<Sent>;

const metadataPath = (spec: OpenApiValidator, operationId: string, fileId: string) => spec.operation(operationId).path.replace("{file_id}", encodeURIComponent(fileId));

/** The file's metadata, read with the key before the first update of it (undefined when it cannot be read). */
async function readFileMetadata(send: Send, spec: OpenApiValidator, fileId: string, apiKey: string): Promise<(Record<string, unknown> & { labels: string[] }) | undefined> {
  const answer = await send("GET", metadataPath(spec, "getFile", fileId), { authorization: `Bearer ${apiKey}` }, undefined);
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
async function putBack(send: Send, spec: OpenApiValidator, touched: { fileId: string; before: Record<string, unknown> & { labels: string[] }; line: number }, apiKey: string, baseUrl: string, breakOf: (b: ReplayBreak) => void): Promise<void> {
  const { fileId, before, line } = touched;
  const state = restorableState({ spec }, before);
  const path = metadataPath(spec, "updateFile", fileId);
  const { method } = spec.operation("updateFile");
  const body = JSON.stringify(state);
  const put = await send(method, path, { authorization: `Bearer ${apiKey}`, "content-type": "application/json" }, body).catch(() => undefined);
  const now = put?.status === 200 ? await readFileMetadata(send, spec, fileId, apiKey).catch(() => undefined) : undefined;
  const wanted = stateOf({ ...before, ...state });
  if (now && JSON.stringify(stateOf(now)) === JSON.stringify(wanted)) return;
  const curl = curlFor({ auth: "valid", method, path, url: `${baseUrl}${path}`, headers: { authorization: "Bearer [REDACTED]", "content-type": "application/json" }, body });
  // The whole story in the problem itself: reports that show no curl command (replay-summary.md) still tell it.
  const outcome = !put ? "the update that puts it back got no answer" : put.status !== 200 ? `the update that puts it back got HTTP ${put.status}` : now ? `the update that puts it back got HTTP 200, then a read showed ${JSON.stringify(stateOf(now))}` : "the update that puts it back got HTTP 200, then the file could not be read";
  breakOf({ line, method, target: path, operation: "updateFile", status: 200, side: "service", check: "file_left_as_found", problem: `the replay could not put file ${JSON.stringify(fileId)} back as it found it, ${JSON.stringify(wanted)}: ${outcome}; it ${now ? "is" : "may be"} left changed since line ${line}`, curl });
}
