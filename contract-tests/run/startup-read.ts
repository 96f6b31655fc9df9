import { readFileSync } from "node:fs";
import { exchangeFrom, type Exchange } from "../http/exchange.ts";
import type { ShownRequest } from "../http/curl.ts";
import type { FailedAttempt, NoAnswerEvidence } from "../http/no-answer.ts";
import { secretsOf } from "../inputs/keys.ts";
import { catalogue } from "../checks/catalogue.ts";
import { recordFailure } from "./evidence.ts";
import type { RunContext } from "./run-context.ts";

/**
 * The runner's start-up read (runner/preflight.ts) as the run's workers get it, in a file (FILE_LIBRARY_PREFLIGHT_FILE):
 * the request as reports show it, and the answer as received, or what happened instead. Plain data: it crosses from
 * the runner's process to the suite's.
 */
export type StartupRead =
  | {
      request: ShownRequest;
      answer: { status: number; headers: Array<[string, string]>; text: string; cut?: number | undefined; invalidUtf8?: string | undefined; durationMs: number; failedAttempts: FailedAttempt[] };
    }
  | { request: ShownRequest; noAnswer: NoAnswerEvidence; message: string };

// Each run's start-up read is judged once, by the first check that runs.
const judged = new WeakSet<RunContext>();

/** The check a start-up read that got no answer fails: the one whose request it is (a read of the file with the key). */
const CHARGED = "metadata_of_requested_file";

/**
 * Judges the runner's start-up read once per run, as the first check runs: its answer goes through the response checks
 * (`inspect`, as every answer of the run), and a read that got no answer fails metadata_of_requested_file, or the
 * first selected check of the catalogue (docs/decisions.md, "Before the first check"). Without a start-up read (the
 * mock, or a run that did not start through a runner) nothing happens.
 */
export function judgeStartupRead(run: RunContext, selected: Set<string>, inspect: (ex: Exchange) => void): void {
  const file = run.settings.preflightFile;
  if (!file || judged.has(run)) return;
  judged.add(run);
  const read = JSON.parse(readFileSync(file, "utf8")) as StartupRead;
  if ("noAnswer" in read) {
    const check = selected.has(CHARGED) ? CHARGED : catalogue.find((c) => c.kind === "scenario" && selected.has(c.name))!.name;
    recordFailure({ check, operation: "getFile", problem: run.redact(`the run's start-up read of the file got no answer: ${read.message}`), noAnswer: read.noAnswer });
    return;
  }
  const { answer } = read;
  const apiKey = run.target.apiKey;
  const seen = { ...answer, headers: new Headers(answer.headers) };
  inspect(exchangeFrom("getFile", read.request, seen, { secrets: secretsOf(apiKey), credentials: [apiKey] }, answer.failedAttempts));
}
