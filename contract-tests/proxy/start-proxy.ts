import path from "node:path";
import { parseBaseUrl } from "../../src/base-url.ts";
import { defaultSpecFile } from "../locations.ts";
import { processEnvironment, readSettings, SettingError, settingsEnvironment } from "../run/settings.ts";
import { loadSuiteSpec } from "../run/spec.ts";
import { startForwarding } from "./forward.ts";
import { TrafficJudge } from "./judge-traffic.ts";
import { proxySummary, writeProxyReports } from "./proxy-reports.ts";
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
}

/** A proxy that listens. */
export interface RunningProxy {
  /** Where apps send their requests instead of the upstream. */
  url: string;
  /** Stops listening, lets the exchanges in flight finish, judges them, writes the reports, and sums up. */
  stop(): Promise<ProxyRun>;
}

/** What a proxy run found. */
export interface ProxyRun {
  /** 0 when the traffic kept the contract, 1 when it broke it. */
  exitCode: 0 | 1;
  summary: ProxySummary;
  /** Absolute folder of proxy-junit.xml, proxy-summary.json and proxy-summary.md. */
  reportDir: string;
}

/**
 * Starts the validating proxy: it forwards the traffic to the upstream unchanged, and judges every exchange in both
 * directions with the suite's own checks (docs/decisions.md, Checking real traffic).
 */
export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = parseBaseUrl(options.upstream);
  if (!upstream.ok) throw new SettingError("--upstream", upstream.problem);
  const settings = readSettings({ ...(options.env ?? processEnvironment()), ...settingsEnvironment({ maxResponseBytes: options.maxResponseBytes, reportDir: options.reportDir }) });
  const spec = loadSuiteSpec(settings.specFile ?? defaultSpecFile);
  const say = options.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  const log = new TrafficLog(say);
  const recorder = options.record ? await Recorder.open(options.record, { apiKey: settings.apiKey, maxBytes: settings.maxResponseBytes }) : undefined;
  const judge = new TrafficJudge(spec, upstream.url, { maxResponseMs: settings.maxResponseMs, maxResponseBytes: settings.maxResponseBytes }, recorder?.listen(log) ?? log, settings.apiKey);
  const forwarding = await startForwarding({
    upstream: upstream.url,
    host: options.host,
    port: options.port,
    captureBytes: settings.maxResponseBytes,
    onRequest: ({ method, target, startedAt }) => judge.requestArrived(method, target, startedAt),
    onExchange: (passed) => {
      try {
        if (recorder) recorder.record(passed, () => judge.judge(passed), (text) => judge.redact(text));
        else judge.judge(passed);
      } catch (error) {
        // A check that breaks must not break the traffic: the exchange is reported as not checked.
        log.notChecked(passed.method, `the proxy could not judge it: ${judge.redact((error as Error).message)}`);
      }
    },
    onUpstreamFailure: (failure) => {
      judge.unanswered(failure);
      log.upstreamFailed(failure, (text) => judge.redact(text));
    },
    onClientGone: (gone) => {
      judge.unanswered(gone);
      log.clientsGone++;
    },
  });
  const reportDir = path.resolve(settings.reportDir ?? "reports");
  let stopping: Promise<ProxyRun> | undefined;
  return {
    url: forwarding.url,
    stop: () =>
      (stopping ??= (async () => {
        await forwarding.close();
        const unrecorded = await recorder?.close();
        if (unrecorded) say(`contract proxy: ${unrecorded}`);
        const summary = proxySummary(spec, upstream.url, log);
        await writeProxyReports(reportDir, spec, summary);
        return { exitCode: summary.verdict === "failed" ? 1 : 0, summary, reportDir } satisfies ProxyRun;
      })()),
  };
}
