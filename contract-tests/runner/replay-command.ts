import path from "node:path";
import { parseBaseUrl } from "../../src/base-url.ts";
import { replayRecording } from "../recording/replay.ts";
import { replayFindingLines, replaySummary, writeReplayReports } from "../recording/replay-reports.ts";
import { processEnvironment } from "../run/settings.ts";
import { parseFileCommand, refusalOf, settingsAndSpec } from "./command-args.ts";
import { unreachableReason } from "./reachability.ts";

/** Distinct requests a replay sends at most, unless --max-requests or FILE_LIBRARY_MAX_REQUESTS says otherwise. */
export const DEFAULT_MAX_REQUESTS = 10_000;

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** What `replay --help` prints. */
export function replayHelp(name: string): string {
  return `Usage: ${name} replay FILE --base-url URL [--write-checks] [--report-dir DIR] [--max-requests N]

Replays what an app did against a deployment: FILE is a recording of \`proxy --record FILE\` (JSON Lines,
format file-library-recording/1) or a browser's HAR export (a name ending in .har: only the requests to
the File Library's paths are taken, their origin replaced by --base-url). Each distinct request is sent
once, in the recorded order (identical ones are counted, not sent again), with the key of
FILE_LIBRARY_API_KEY, and each answer is judged twice: by the spec, with the proxy's own checks of the
service's answers; and as the app saw it: the same status, every JSON member the app got with the same
JSON type (values may differ), and for the download a URL.

Read-only unless --write-checks: the app's updates are left out, and the run says how many. With it, each
file an update touches is read first and put back afterwards, as the contract suite's write checks do.

Flags:
  --base-url URL     the deployment to replay against (required)
  --write-checks     replay the app's updates too, and put each file back afterwards
  --report-dir DIR   folder of replay-junit.xml, replay-summary.json and .md (default: FILE_LIBRARY_REPORT_DIR, else reports)
  --max-requests N   distinct requests sent at most (default: FILE_LIBRARY_MAX_REQUESTS, else ${DEFAULT_MAX_REQUESTS});
                     a recording with more stops the replay (exit 2)
  -h, --help         show this text

Environment: FILE_LIBRARY_API_KEY (required; redacted wherever it would show), FILE_LIBRARY_REQUEST_TIMEOUT_MS,
FILE_LIBRARY_MAX_RESPONSE_BYTES, FILE_LIBRARY_SPEC.

Exit codes: 0 every replayed exchange held, 1 one broke (each break names its line, the side, and a curl
command), 2 the replay could not start (the file, the URL, the key, the server) or finish (the budget spent,
the server stopped answering), 130 interrupted (Ctrl-C: the files it wrote are put back, the reports written).`;
}

/** Runs `replay` from its argv (after the word `replay`); resolves with the exit code. */
export async function runReplayCommand(
  argv: string[],
  name: string,
  env: Record<string, string | undefined> = processEnvironment(),
): Promise<number> {
  const cannotStart = refusalOf(`${name} replay`);
  const parsed = parseFileCommand(
    argv,
    {
      "base-url": { type: "string" },
      "write-checks": { type: "boolean", default: false },
      "report-dir": { type: "string" },
      "max-requests": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    cannotStart,
    {
      help: `${name} replay --help`,
      usage: () => replayHelp(name),
      wrongCount: (got) => `give one recording (FILE), got ${got}: ${name} replay FILE --base-url URL (see --help)`,
    },
  );
  if (typeof parsed === "number") return parsed;
  const { values, file } = parsed;
  if (!values["base-url"])
    return cannotStart(`--base-url URL is required: the deployment to replay against (see ${name} replay --help)`);
  const baseUrl = parseBaseUrl(values["base-url"]);
  if (!baseUrl.ok) return cannotStart(`--base-url ${baseUrl.problem}`);
  const loaded = settingsAndSpec(env, cannotStart);
  if (typeof loaded === "number") return loaded;
  const { settings, spec } = loaded;
  if (!settings.apiKey)
    return cannotStart(
      "FILE_LIBRARY_API_KEY is not set: the replay sends the app's requests with the key, from the environment only.",
    );
  const budget =
    values["max-requests"] ??
    (settings.maxRequests === undefined ? String(DEFAULT_MAX_REQUESTS) : String(settings.maxRequests));
  if (!/^[1-9]\d*$/.test(budget))
    return cannotStart(`--max-requests takes a whole number of at least 1, got ${JSON.stringify(budget)}`);
  const unreachable = await unreachableReason(baseUrl.url);
  if (unreachable)
    return cannotStart(`the server at ${baseUrl.url} is unreachable (${unreachable}); check --base-url.`);

  // Ctrl-C stops the replay between two requests: the files it wrote are put back and the reports written (exit 130).
  const interrupted = new AbortController();
  const interrupt = () => interrupted.abort();
  for (const signal of SIGNALS) process.once(signal, interrupt);
  const result = await replayRecording({
    file,
    baseUrl: baseUrl.url,
    apiKey: settings.apiKey,
    writeChecks: values["write-checks"] ?? false,
    maxRequests: Number(budget),
    spec,
    limits: {
      maxResponseMs: settings.maxResponseMs,
      maxResponseBytes: settings.maxResponseBytes,
      requestTimeoutMs: settings.requestTimeoutMs,
    },
    say: (line) => console.error(`${name} replay: ${line}`),
    signal: interrupted.signal,
  }).finally(() => {
    for (const signal of SIGNALS) process.off(signal, interrupt);
  });
  if (result.stopped?.atStart) return cannotStart(result.stopped.reason);
  const summary = replaySummary(file, baseUrl.url, result);
  const reportDir = path.resolve(values["report-dir"] ?? settings.reportDir ?? "reports");
  await writeReplayReports(reportDir, summary);
  for (const line of replayFindingLines(result)) console.error(`${name} replay: ${line}`);
  for (const line of result.leftOut) console.error(`${name} replay: left out: ${line}`);
  if (result.stopped) console.error(`${name} replay: cannot finish: ${result.stopped.reason}`);
  const breaks = result.breaks.length + result.breaksLeftOut;
  console.error(
    `${name} replay: ${summary.verdict}: ${result.exchanges} exchanges, ${result.duplicates} duplicates, ${result.replayed} replayed, ${breaks} break(s)` +
      `${result.notFileLibrary ? `, ${result.notFileLibrary} not the File Library's` : ""}; reports in ${reportDir}`,
  );
  return interrupted.signal.aborted ? 130 : result.exitCode;
}
