import { readBundledDocument } from "../../lib/openapi/bundled-document.ts";
import { SpecOperations } from "../../lib/openapi/spec-operations.ts";
import type { Target } from "../http/target.ts";
import { Transport } from "../http/transport.ts";
import type { SuiteSettings } from "../run/settings.ts";
import type { StartupRead } from "../run/startup-read-record.ts";
import { redactSecrets } from "../../lib/redact-secrets.ts";
import { NoAnswerError } from "../http/no-answer.ts";
import { secretsOf } from "../inputs/keys.ts";

/** The run cannot start: one line that names what to fix (a setting, the spec, the server), for exit 2. */
export class CannotStartError extends Error {
  override name = "CannotStartError";
}

/** What the preflight read cost and got: the requests it sent (a retry on a new connection is one more), for the run's budget, and the read itself, for the checks to judge. */
export interface Preflight {
  requests: number;
  read: StartupRead;
}

// The statuses that say the key is not accepted: 401 as the spec documents it, 403 as gateways send it.
const REFUSED_KEY = new Set([401, 403]);

/**
 * One read of the file with the given key, before any check: a refused key or a file the server does not know is a
 * wrong setting, not a broken server, and the run stops with one line that names it (exit 2). Anything else (200, a
 * 5xx, a 429, an undocumented status, a body past the limit, no answer) is the run's first exchange: handed to the
 * checks, which judge it as any other (run/startup-read.ts).
 */
export async function preflight(target: Target, settings: Pick<SuiteSettings, "requestTimeoutMs" | "maxResponseBytes">, specFile: string): Promise<Preflight> {
  const { method, path: template } = new SpecOperations(readBundledDocument(specFile, "")).operation("getFile");
  const path = template.replace("{file_id}", encodeURIComponent(target.fileId));
  const url = `${target.baseUrl}${path}`;
  const transport = new Transport({ timeoutMs: settings.requestTimeoutMs, maxBytes: settings.maxResponseBytes });
  let requests = 0;
  let answer;
  try {
    // No 429 is waited out here: a 429 says nothing of the key or the file, and the run waits out its 429s itself,
    // within its caps, with the reason it stops if it must.
    answer = await transport.send(url, { method, headers: { authorization: `Bearer ${target.apiKey}` } }, { beforeAttempt: () => void requests++ });
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error;
    return { requests, read: { noAnswer: { attempts: error.attempts, message: redactSecrets(error.message, secretsOf(target.apiKey)) } } };
  } finally {
    await transport.close();
  }
  const { response, text, cut, invalidUtf8, durationMs, failedAttempts } = answer;
  const status = response.status;
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
  return { requests, read: { answer: { status, headers: [...response.headers], text, cut, invalidUtf8, durationMs, failedAttempts } } };
}
