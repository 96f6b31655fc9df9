import { readBundledDocument } from "../../lib/openapi/bundled-document.ts";
import { SpecOperations } from "../../lib/openapi/spec-operations.ts";
import type { Target } from "../http/target.ts";
import { RateLimitedError, RateLimiter } from "../http/rate-limits.ts";
import { type Clock, realClock } from "../http/wait-clock.ts";
import { RequestBudget, RequestBudgetError, requestLimit } from "../http/request-budget.ts";
import { Transport, type Answered } from "../http/transport.ts";
import type { SuiteSettings } from "../run/settings.ts";
import type { RecordedAnswer, StartupRead } from "../run/startup-read-record.ts";
import { redactSecrets } from "../../lib/redact-secrets.ts";
import { NoAnswerError } from "../http/no-answer.ts";
import { secretsOf } from "../inputs/keys.ts";

/** The run cannot start: one line that names what to fix (a setting, the spec, the server), for exit 2. */
export class CannotStartError extends Error {
  override name = "CannotStartError";
}

/** What the preflight read cost and got: the requests it sent (a retry on a new connection, or after a 429, is one more), for the run's budget, and the read itself, for the checks to judge. */
export interface Preflight {
  requests: number;
  read: StartupRead;
}

/** The settings the start-up read is held to: the run's limits, caps and budget. */
export type PreflightSettings = Pick<
  SuiteSettings,
  "requestTimeoutMs" | "maxResponseBytes" | "rateLimits" | "maxRequests"
>;

// The statuses that say the key is not accepted: 401 as the spec documents it, 403 as gateways send it.
const REFUSED_KEY = new Set([401, 403]);

/**
 * One read of the file with the given key, before any check: a refused key or a file the server does not know is a
 * wrong setting, not a broken server, and the run stops with one line that names it (exit 2). A 429 says nothing of
 * either: it is waited out as the run waits out every 429, within the same caps and the request budget (past them the
 * run cannot start, exit 2), and the key and the file are judged on the answer after. Every answer else (200, a 5xx,
 * an undocumented status, a body past the limit, no answer), and each 429 before it, is the run's: handed to the
 * checks, which judge it as any other (run/startup-read.ts).
 */
export async function preflight(
  target: Target,
  settings: PreflightSettings,
  specFile: string,
  waitClock: Clock = realClock,
): Promise<Preflight> {
  const { method, path: template } = new SpecOperations(readBundledDocument(specFile, "")).operation("getFile");
  const path = template.replace("{file_id}", encodeURIComponent(target.fileId));
  const url = `${target.baseUrl}${path}`;
  const transport = new Transport({ timeoutMs: settings.requestTimeoutMs, maxBytes: settings.maxResponseBytes });
  const budget = new RequestBudget(requestLimit(target, settings));
  const rateLimiter = new RateLimiter(settings.rateLimits, waitClock);
  const rateLimited: RecordedAnswer[] = [];
  const waited = () => (rateLimited.length > 0 ? { rateLimited, waitedMs: rateLimiter.waitedMs } : {});
  let answer;
  try {
    answer = await transport.send(
      url,
      { method, headers: { authorization: `Bearer ${target.apiKey}` } },
      { beforeAttempt: () => budget.take(), rateLimiter, onRateLimited: (a) => rateLimited.push(recorded(a)) },
    );
  } catch (error) {
    // Past a cap the run cannot start, with the line the run stops with past it (http/rate-limits.ts).
    if (error instanceof RateLimitedError) throw new CannotStartError(error.message);
    if (error instanceof RequestBudgetError)
      throw new CannotStartError(`the server rate-limited the run's start-up read until ${error.message}.`);
    if (!(error instanceof NoAnswerError)) throw error;
    return {
      requests: budget.sent,
      read: {
        noAnswer: { attempts: error.attempts, message: redactSecrets(error.message, secretsOf(target.apiKey)) },
        ...waited(),
      },
    };
  } finally {
    await transport.close();
  }
  const status = answer.response.status;
  const shown = `HTTP ${status} to ${method} ${template.replace("{file_id}", "<file id>")}`;
  if (REFUSED_KEY.has(status)) {
    throw new CannotStartError(
      `the server refused FILE_LIBRARY_API_KEY (${shown}): check that the key is current and meant for ${target.baseUrl} (--base-url), and that the variable holds the key alone.`,
    );
  }
  if (status === 422) {
    throw new CannotStartError(
      `file id ${JSON.stringify(target.fileId)} was not found on ${target.baseUrl} (${shown}, the service's answer for an unknown id): give the id of an existing file with --file-id or FILE_LIBRARY_FILE_ID.`,
    );
  }
  return {
    requests: budget.sent,
    read: { answer: { ...recorded(answer), failedAttempts: answer.failedAttempts }, ...waited() },
  };
}

/** An answer as the engine is given it: plain data. */
function recorded({ response, text, cut, invalidUtf8, durationMs }: Answered): RecordedAnswer {
  return { status: response.status, headers: [...response.headers], text, cut, invalidUtf8, durationMs };
}
