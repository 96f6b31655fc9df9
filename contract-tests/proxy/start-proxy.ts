import path from "node:path";
import { parseBaseUrl } from "../../src/base-url.ts";
import { defaultSpecFile } from "../locations.ts";
import { processEnvironment, readSettings, SettingError, settingsEnvironment } from "../run/settings.ts";
import { loadSuiteSpec } from "../run/spec.ts";
import { answerChange } from "./answer-change.ts";
import { DRAIN_MS } from "./drain.ts";
import { startForwarding, type PassedExchange } from "./forward.ts";
import { TrafficJudge } from "./judge-traffic.ts";
import { findingLines, proxySummary, refusedLine, writeProxyReports } from "./proxy-reports.ts";
import type { ProxySummary } from "./proxy-summary.ts";
import { TrafficLog } from "./traffic-log.ts";
import { Recorder } from "../recording/recorder.ts";

/** How to run the contract proxy. */
export interface ProxyOptions {
  /** The service the traffic goes to, as a base URL. */
  upstream: string;
  /** The port to listen on (default 0: a free one). */
  port?: number | undefined;
  /** The address to listen on (default 127.0.0.1). */
  host?: string | undefined;
  /** Where the reports go (default: FILE_LIBRARY_REPORT_DIR, else `reports`), relative to the working directory. */
  reportDir?: string | undefined;
  /** The most bytes of a body that are judged (FILE_LIBRARY_MAX_RESPONSE_BYTES): longer ones pass unjudged. */
  maxResponseBytes?: number | undefined;
  /** The environment the settings not given come from (default: process.env): the key to redact, the spec. */
  env?: Record<string, string | undefined> | undefined;
  /** Where a line goes for each new kind of finding, as it happens (default: stderr). */
  say?: ((line: string) => void) | undefined;
  /** A file to write every judged exchange to, as JSON Lines (docs/recording-format.md); none by default. */
  record?: string | undefined;
  /** How long stop() waits for the exchanges in flight before it cuts them (default DRAIN_MS, 5 s). */
  drainMs?: number | undefined;
  /** Add FINDINGS_HEADER to each answer, naming that exchange's findings (--findings-header; off by default). */
  findingsHeader?: boolean | undefined;
  /** Answer 502 with a problem+json body instead of an answer that broke the contract (--fail-on-service-finding). */
  failOnServiceFinding?: boolean | undefined;
}

export { DRAIN_MS } from "./drain.ts";

/** A proxy that listens. */
export interface RunningProxy {
  /** Where apps send their requests instead of the upstream. */
  url: string;
  /**
   * Stops taking requests (a new one gets a 503 saying the proxy is stopping), lets the exchanges in flight finish for
   * at most `drainMs` (the rest are cut: their apps get a 502 saying so), judges them, waits as long again at most for
   * the recording, writes the reports, and sums up. With `refuseUntil` (a command that still runs), new requests go
   * on getting the 503 until it settles, instead of a refused connection: the reports are written at the drain's end
   * all the same, written again when it settles if requests were refused since, and the run resolves then, every
   * refused request counted. One run: a second call gets the first's.
   */
  stop(options?: { refuseUntil?: Promise<unknown> | undefined }): Promise<ProxyRun>;
  /** Cuts the exchanges in flight at once, then as stop(): for a second Ctrl-C. */
  stopNow(): Promise<ProxyRun>;
}

/** What a proxy run found. */
export interface ProxyRun {
  /**
   * 0 when the traffic kept the contract, 1 when it broke it, 2 when the upstream answered nothing (`stopped` says why),
   * `--record` left exchanges out of the recording (`recordingIncomplete` says how many and why), or requests came
   * while the proxy was stopping and were refused unchecked (`refusedWhileStopping`).
   */
  exitCode: 0 | 1 | 2;
  summary: ProxySummary;
  /** Absolute folder of proxy-junit.xml, proxy-summary.json and proxy-summary.md. */
  reportDir: string;
}

/**
 * Starts the validating proxy: it forwards the traffic to the upstream unchanged, and judges every exchange in both
 * directions with the suite's own checks (docs/decisions.md, D24).
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = parseBaseUrl(options.upstream);
  if (!upstream.ok) throw new SettingError("--upstream", upstream.problem);
  const settings = readSettings({
    ...(options.env ?? processEnvironment()),
    ...settingsEnvironment({ maxResponseBytes: options.maxResponseBytes, reportDir: options.reportDir }),
  });
  const spec = loadSuiteSpec(settings.specFile ?? defaultSpecFile);
  const say = options.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const log = new TrafficLog(say);
  const recorder = options.record
    ? await Recorder.open(options.record, { apiKey: settings.apiKey, maxBytes: settings.maxResponseBytes })
    : undefined;
  const judge = new TrafficJudge(
    spec,
    upstream.url,
    { maxResponseMs: settings.maxResponseMs, maxResponseBytes: settings.maxResponseBytes },
    recorder?.listen(log) ?? log,
    settings.apiKey,
  );
  /** Judges an exchange the upstream answered (and records it, when asked); returns its findings. */
  const judged = (passed: PassedExchange) => {
    log.answered++;
    try {
      if (!recorder) return judge.judge(passed);
      let findings: ReturnType<TrafficJudge["judge"]> = [];
      recorder.record(
        passed,
        () => void (findings = judge.judge(passed)),
        (text) => judge.redact(text),
      );
      return findings;
    } catch (error) {
      // A check that breaks must not break the traffic: the exchange is reported as not checked.
      log.notChecked(passed.method, `the proxy could not judge it: ${judge.redact((error as Error).message)}`);
      return [];
    }
  };
  const forwarding = await startForwarding({
    upstream: upstream.url,
    host: options.host,
    port: options.port,
    captureBytes: settings.maxResponseBytes,
    onRequest: ({ method, target, startedAt }) => judge.requestArrived(method, target, startedAt),
    onExchange: (passed) => void judged(passed),
    judgeBeforeAnswer:
      options.findingsHeader || options.failOnServiceFinding
        ? (passed) => answerChange(judged(passed), options)
        : undefined,
    onUpstreamFailure: (failure) => {
      judge.unanswered(failure);
      log.upstreamFailed(failure, (text) => judge.redact(text));
    },
    onClientGone: (gone) => {
      judge.unanswered(gone);
      log.clientsGone++;
    },
    onRefused: ({ method, target, headers }) => log.refused(judge.refused(method, target, headers)),
  });
  const reportDir = path.resolve(settings.reportDir ?? "reports");
  let stopping: Promise<ProxyRun> | undefined;
  const stop = (how: { refuseUntil?: Promise<unknown> | undefined } = {}) =>
    (stopping ??= (async () => {
      const { cut, closed } = await forwarding.close(options.drainMs ?? DRAIN_MS, how.refuseUntil);
      log.cutAtStop = cut;
      // A destination that stopped taking the lines (a pipe nobody reads) is given as long as the exchanges were.
      const unrecorded = await recorder?.close(options.drainMs ?? DRAIN_MS);
      if (unrecorded) say(`contract proxy: ${unrecorded}`);
      const report = async () => {
        const summary = {
          ...proxySummary(spec, upstream.url, log),
          ...(unrecorded ? { recordingIncomplete: unrecorded } : {}),
        };
        await writeProxyReports(reportDir, spec, summary);
        return { exitCode: runExitCode(summary), summary, reportDir } satisfies ProxyRun;
      };
      let run = await report();
      for (const line of findingLines(run.summary)) say(`contract proxy: ${line}`);
      // Refused requests go on coming while a command still runs: the reports written on time are written again
      // once the proxy no longer listens, if more came, so that every refused request is in them.
      await closed;
      if (log.refusedWhileStopping.count !== run.summary.refusedWhileStopping.count) run = await report();
      if (run.summary.refusedWhileStopping.count > 0) say(`contract proxy: ${refusedLine(run.summary)}`);
      return run;
    })());
  return {
    url: forwarding.url,
    stop: (how) => stop(how),
    stopNow: () => {
      forwarding.cutNow();
      recorder?.giveUp();
      return stop();
    },
  };
}

/**
 * A run's exit code (docs/decisions.md, D27). A run in which the upstream answered nothing checked nothing, one asked
 * to record that left exchanges out did not do what it was asked, and one that refused requests of the app while it
 * was stopping did not check all its traffic: none can pass, whatever else it saw. The service is not blamed for
 * them either (not 1): the findings, if any, are in the reports.
 */
function runExitCode(summary: ProxySummary): ProxyRun["exitCode"] {
  if (summary.stopped || summary.recordingIncomplete || summary.refusedWhileStopping.count > 0) return 2;
  return summary.verdict === "failed" ? 1 : 0;
}
