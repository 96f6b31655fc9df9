/**
 * A Scenario for the scenario checks' unit tests: `send` answers from a script (no server, no network), so that a
 * check's whole logic (what it sends, in what order, what it concludes) runs in the test's process. Every answer is
 * made by the exchange builder. `fileServer` is a script that keeps one file as the service does, with hooks to break it.
 */
import fc from "fast-check";
import type { OperationId, Scenario, ScenarioCheck } from "../../contract-tests/checks/types.ts";
import type { Exchange, Followed } from "../../contract-tests/http/exchange.ts";
import type { RequestContext } from "../../contract-tests/http/request-context.ts";
import type { AuthMode } from "../../contract-tests/inputs/keys.ts";
import { answer, FILE_ID, metadataOf, spec, type AnswerParts } from "./exchange-builder.ts";

/** A request a check sent, as the script sees it. */
export interface SentRequest {
  operationId: OperationId;
  fileId: string;
  auth: AuthMode;
  json?: unknown;
  rawBody?: string | undefined;
  accept?: string | undefined;
  essential?: boolean | undefined;
  freshConnection?: boolean | undefined;
}

/** Answers the `index`th request (from 0); a promise holds the answer back, as a server does while it works (overlapping requests). */
export type Script = (request: SentRequest, index: number) => AnswerParts | Promise<AnswerParts>;

/** What the fake run is given. */
export interface FakeOptions {
  operationId: OperationId;
  answer: Script;
  mode?: "live" | "mock";
  writeChecks?: boolean;
  fileId?: string;
  /** What fetching a URL the server handed out gives; an Error is thrown instead (no answer). */
  follow?: (url: string) => Followed | Error;
  /** How many inputs `forAll` generates (the run's FILE_LIBRARY_FUZZ_RUNS). */
  fuzzRuns?: number;
  /** The file as the run found it before its first write, as the runner hands it to file_left_as_found. */
  baseline?: Promise<{ metadata: Record<string, unknown> | undefined }>;
}

/** How a check's run ended, and everything it did on the way. */
export interface Outcome {
  state: "passed" | "failed" | "skipped";
  /** The failure's or the skip's words. */
  problem?: string;
  /** The exchange the failure named. */
  exchange?: Exchange | undefined;
  warnings: string[];
  records: string[];
  sent: SentRequest[];
  followed: string[];
}

class Failed extends Error {
  constructor(
    readonly problem: string,
    readonly exchange: Exchange | undefined,
  ) {
    super(problem);
  }
}
class Skipped extends Error {}

/** A scenario that answers from the script, and the outcome it collects. */
export function fakeScenario(options: FakeOptions): { scenario: Scenario; outcome: Outcome } {
  const outcome: Outcome = { state: "passed", warnings: [], records: [], sent: [], followed: [] };
  const target = {
    mode: options.mode ?? "live",
    baseUrl: "http://server.test",
    apiKey: "the-key",
    fileId: options.fileId ?? FILE_ID,
    writeChecks: options.writeChecks ?? true,
  };
  const transport = {
    async send(url: string) {
      outcome.followed.push(url);
      const followed = options.follow?.(url) ?? new Error("no follow scripted");
      if (followed instanceof Error) throw followed;
      return { ...followed, response: { status: followed.status }, text: "", durationMs: 1, failedAttempts: [] };
    },
  };
  const context = {
    target,
    spec,
    budget: { take() {} },
    rateLimiter: undefined,
    transport,
  } as unknown as RequestContext;
  const scenario: Scenario = {
    operationId: options.operationId,
    context,
    target,
    spec,
    async send(request) {
      const sent: SentRequest = {
        ...request,
        operationId: request.operationId ?? options.operationId,
        auth: request.auth ?? "valid",
      };
      const index = outcome.sent.push(sent) - 1;
      const body = sent.rawBody ?? (sent.json === undefined ? undefined : JSON.stringify(sent.json));
      return answer({
        operationId: sent.operationId,
        ...(await options.answer(sent, index)),
        request: { fileId: sent.fileId, body },
      });
    },
    fail(problem, exchange) {
      throw new Failed(problem, exchange);
    },
    warn: (message) => void outcome.warnings.push(message),
    skip(reason) {
      throw new Skipped(reason);
    },
    record: (kind) => void outcome.records.push(kind),
    // No run around it: no write was held to a baseline (file_left_as_found's own test gives one).
    baseline: () => options.baseline,
    async forAll(arbitrary, property) {
      const details = await fc.check(fc.asyncProperty(arbitrary, property), {
        seed: 7,
        numRuns: options.fuzzRuns ?? 5,
      });
      if (details.failed) throw details.errorInstance;
    },
  };
  return { scenario, outcome };
}

/** Runs a scenario check against the script; resolves with how it ended (an error the check did not expect rejects). */
export async function runCheck(check: ScenarioCheck, options: FakeOptions): Promise<Outcome> {
  const { scenario, outcome } = fakeScenario(options);
  try {
    await check.run(scenario);
  } catch (error) {
    if (error instanceof Failed)
      return Object.assign(outcome, { state: "failed", problem: error.problem, exchange: error.exchange });
    if (error instanceof Skipped) return Object.assign(outcome, { state: "skipped", problem: error.message });
    throw error;
  }
  return outcome;
}

/** Ways to break the file server of `fileServer`. */
export interface FileServerOptions {
  metadata?: Record<string, unknown>;
  /** What an accepted update does to the stored file, given the fields it sends that are not `null` (default: set as sent). */
  update?: (file: Record<string, unknown>, body: Record<string, unknown>) => Record<string, unknown>;
  /** Answers a request before the server does (a fault), and may change the stored file; undefined lets the server answer. */
  before?: (request: SentRequest, index: number, stored: { file: Record<string, unknown> }) => AnswerParts | undefined;
  /** The download's answer (default: the URL as text/plain). */
  download?: AnswerParts;
}

/** The updates the kit's reference accepts: an object whose labels (strings) and publicUrl (a string) may each be null or absent. */
const acceptable = (json: unknown): json is Record<string, unknown> =>
  spec.validateRequestBody("updateFile", "application/json", json).valid;

/**
 * A script that behaves as the service does, over one file: reads answer its metadata, updates that match the spec
 * change it, a wrong key gets 401, another id 422, a body that breaks the schema 422 (400 when it is not JSON).
 * The file is `server.file`, for tests to read.
 */
export function fileServer(
  options: FileServerOptions = {},
): ((request: SentRequest, index: number) => AnswerParts) & { file: Record<string, unknown> } {
  const state = { file: { ...(options.metadata ?? metadataOf()) } };
  const error = (status: number, message: string): AnswerParts => ({ status, json: { code: status, message } });
  const script = (request: SentRequest, index: number): AnswerParts => {
    const early = options.before?.(request, index, state);
    if (early) return early;
    if (request.auth !== "valid") return error(401, "missing or wrong key");
    if (request.fileId !== state.file.id) return error(422, "no such file");
    if (request.operationId === "getFile") return { json: state.file };
    if (request.operationId === "getFileDownloadUrl")
      return options.download ?? { text: `https://files.test/${request.fileId}?sig=1`, contentType: "text/plain" };
    if (request.rawBody !== undefined) return error(400, "not JSON");
    if (!acceptable(request.json)) return error(422, "invalid body");
    const body = request.json;
    // As the service: only labels and publicUrl change, and `null` for either is "not given" (other members are ignored).
    const given = Object.fromEntries(
      Object.entries(body).filter(([name, value]) => (name === "labels" || name === "publicUrl") && value !== null),
    );
    state.file = options.update ? options.update(state.file, given) : { ...state.file, ...given };
    return {};
  };
  Object.defineProperty(script, "file", { get: () => state.file });
  return script as typeof script & { file: Record<string, unknown> };
}
