import { exchangeFrom, type Exchange } from "../http/exchange.ts";
import { curlFor, type ShownRequest } from "../http/curl.ts";
import { secretsOf, shownAuthorization } from "../inputs/keys.ts";
import { catalogue } from "../checks/catalogue.ts";
import type { CheckEvidence } from "./evidence.ts";
import type { RunContext } from "./run-context.ts";
import type { FailedAttempt } from "../http/no-answer.ts";
import type { RecordedAnswer, StartupRead } from "./startup-read-record.ts";

// Each run's start-up read is judged once, by the first check that runs.
const judged = new WeakSet<RunContext>();

/** The check a start-up read that got no answer fails: the one whose request it is (a read of the file with the key). */
const CHARGED = "metadata_of_requested_file";

/**
 * Judges the runner's start-up read once per run, as the first check runs: its answer goes through the response checks
 * (`inspect`, as every answer of the run), and a read that got no answer fails metadata_of_requested_file, or the
 * first selected check of the catalogue (docs/decisions.md, D22). Without a start-up read (the
 * mock, or a run that did not start through a runner) nothing happens.
 */
export function judgeStartupRead(
  run: RunContext,
  selected: Set<string>,
  evidence: CheckEvidence,
  inspect: (ex: Exchange) => void,
): void {
  const read = run.startupRead;
  if (!read || judged.has(run)) return;
  judged.add(run);
  const { target } = run;
  // The request as the runner sent it: a read of the file with the key.
  const { method, path: template } = run.spec.operation("getFile");
  const path = template.replace("{file_id}", encodeURIComponent(target.fileId));
  const request: ShownRequest = {
    auth: "valid",
    method,
    path,
    url: `${target.baseUrl}${path}`,
    headers: { authorization: shownAuthorization("valid", target.apiKey)! },
  };
  const seen = (answer: RecordedAnswer, failedAttempts: FailedAttempt[] = []) =>
    exchangeFrom(
      "getFile",
      request,
      { ...answer, headers: new Headers(answer.headers) },
      { secrets: secretsOf(target.apiKey), credentials: [target.apiKey] },
      failedAttempts,
    );
  // The 429s it waited out came first: judged as the run judges each 429 it waits out.
  for (const answer of read.rateLimited ?? []) inspect(seen(answer));
  if ("noAnswer" in read) {
    const check = selected.has(CHARGED)
      ? CHARGED
      : catalogue.find((c) => c.kind === "scenario" && selected.has(c.name))!.name;
    const noAnswer = {
      operationId: "getFile",
      method,
      path,
      url: request.url,
      curl: curlFor(request),
      attempts: read.noAnswer.attempts,
    };
    evidence.failure({
      check,
      operation: "getFile",
      problem: run.redact(`the run's start-up read of the file got no answer: ${read.noAnswer.message}`),
      noAnswer,
    });
    return;
  }
  inspect(seen(read.answer, read.answer.failedAttempts));
}

/** The statuses the start-up read was answered with, 429s included, for the run's coverage (its requests are counted apart). */
export function startupStatuses(read: StartupRead | undefined): Array<{ operationId: string; status: number }> {
  if (!read) return [];
  const answers = [...(read.rateLimited ?? []), ...("answer" in read ? [read.answer] : [])];
  return answers.map(({ status }) => ({ operationId: "getFile", status }));
}
