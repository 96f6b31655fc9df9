import { parseArgs } from "node:util";
import { exitCodeOf, signalChild, startChild } from "../../lib/process.ts";
import { SpecLoadError } from "../../lib/openapi/bundled-document.ts";
import { processEnvironment, SettingError } from "../run/settings.ts";
import { DRAIN_MS, startProxy, type ProxyRun, type RunningProxy } from "../proxy/start-proxy.ts";

/** What `proxy --help` prints. */
export function proxyHelp(name: string): string {
  return `Usage: ${name} proxy --upstream URL [--port N] [--host H] [--report-dir DIR] [--record FILE]
          [--findings-header] [--fail-on-service-finding] [-- command args...]

Forwards every request to the upstream unchanged, and judges each exchange against the spec, in both
directions: the app's request (the operation, its path parameter, Content-Type, body and key) and the
service's answer (status, media type, body, headers: the contract suite's own checks), and across
exchanges (an accepted update shows in the next read; a file does not come and go; no field but labels,
publicUrl and a modification date changes between reads). Nothing is changed, delayed or refused, unless an
opt-in flag says so.

With a command after --, it runs the command with FILE_LIBRARY_BASE_URL set to the proxy, then writes the
reports and exits with the command's status, or 1 when the traffic broke the contract. Without one, it runs
until SIGINT or SIGTERM, then writes the reports; exit 1 when the traffic broke the contract. On the first
SIGINT or SIGTERM it takes no new request (each gets a 503 saying so, also while the command still runs),
lets the exchanges in flight finish (${DRAIN_MS / 1000} s at most; those the upstream still holds then get a 502)
and gives a --record file as long to take its last lines; a second one stops it at once (the command too,
with SIGKILL), still writing the reports, and exits 128 + the signal's number. Exit 2 when the run checked
nothing (the upstream answered no request), when requests came while it was stopping (each got the 503,
unchecked), or when --record left exchanges out of the recording (the disk refused them, or fell behind).

Flags:
  --upstream URL     the service the traffic goes to (required)
  --port N           port to listen on (default: a free one; the URL is printed)
  --host H           address to listen on (default 127.0.0.1)
  --report-dir DIR   folder of proxy-junit.xml, proxy-summary.json and .md
                     (default: FILE_LIBRARY_REPORT_DIR, else reports)
  --record FILE      write every exchange to FILE as JSON Lines, one a line, the key and every
                     secret redacted (format file-library-recording/1; replay it with \`replay FILE\`)
  --findings-header  add X-Contract-Findings to each answer: that exchange's findings, "0" or "2; service getFile
                     response_schema_conformance, app getFile auth_sent" (answers are held until judged)
  --fail-on-service-finding
                     answer 502 (application/problem+json naming each finding) instead of an answer on which the
                     service broke the contract, so that the app's own test fails at that call
  -h, --help         show this text

Environment: FILE_LIBRARY_API_KEY (redacted wherever it would show; every bearer token that passes is too),
FILE_LIBRARY_MAX_RESPONSE_BYTES (bodies longer than this pass unjudged, default 1048576), FILE_LIBRARY_SPEC.

Exit codes: 0 the traffic kept the contract; 1 it broke it (either side's findings); the command's own status
when it failed; 2 the proxy could not start, the upstream answered nothing (no request reached it, or none got
an answer: the run checked nothing), requests came while the proxy was stopping (refused with its 503: not all
the traffic was checked), or --record left exchanges out of the recording; 127 the command could not be run;
128 + n after a second signal n.`;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;
const SIGNAL_NUMBERS = { SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Ctrl-C twice: the first signal lets the exchanges in flight finish, DRAIN_MS at most; the second cuts them at once
 * (and stops the command, if any, with SIGKILL). Either way the reports are written. Resolves with the first signal;
 * `again` with the second.
 */
function interrupts(
  name: string,
  proxy: RunningProxy,
  onFirst: (signal: NodeJS.Signals) => void,
  onSecond: () => void,
) {
  let first: NodeJS.Signals | undefined;
  let again = false;
  let resolveFirst!: (signal: NodeJS.Signals) => void;
  const firstSignal = new Promise<NodeJS.Signals>((resolve) => (resolveFirst = resolve));
  const handler = (signal: NodeJS.Signals) => {
    if (first === undefined) {
      first = signal;
      console.error(
        `${name} proxy: ${signal}: finishing the exchanges in flight (${DRAIN_MS / 1000} s at most), then writing the reports; ${signal} again to stop at once`,
      );
      onFirst(signal);
      resolveFirst(signal);
      return;
    }
    if (again) return;
    again = true;
    console.error(`${name} proxy: ${signal} again: stopping at once, writing the reports`);
    onSecond();
    // The main flow awaits the same run (stop() is one promise): a failure is reported there.
    proxy.stopNow().catch(() => {});
  };
  for (const signal of SIGNALS) process.on(signal, handler);
  return {
    firstSignal,
    /** The exit code of an interrupted run, as a shell reports it (130 for SIGINT), once it was interrupted twice. */
    interruptedCode: () => (again && first ? 128 + SIGNAL_NUMBERS[first as keyof typeof SIGNAL_NUMBERS] : undefined),
    remove: () => {
      for (const signal of SIGNALS) process.off(signal, handler);
    },
  };
}

/** Runs `proxy` from its argv (after the word `proxy`); resolves with the exit code. */
export async function runProxyCommand(argv: string[], name: string): Promise<number> {
  const split = argv.indexOf("--");
  const flags = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  let values;
  try {
    ({ values } = parseArgs({
      args: flags,
      options: {
        upstream: { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        "report-dir": { type: "string" },
        record: { type: "string" },
        "findings-header": { type: "boolean" },
        "fail-on-service-finding": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return cannotStart(name, `${(error as Error).message} (see ${name} proxy --help)`);
  }
  if (values.help) {
    console.log(proxyHelp(name));
    return 0;
  }
  if (!values.upstream)
    return cannotStart(name, `--upstream URL is required: the service the traffic goes to (see ${name} proxy --help)`);
  if (split !== -1 && command.length === 0)
    return cannotStart(name, "nothing after --: give the command to run through the proxy, or leave out --");
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    return cannotStart(name, `--port takes a port number (0 for a free one), got ${JSON.stringify(values.port)}`);

  let proxy;
  try {
    proxy = await startProxy({
      upstream: values.upstream,
      port,
      host: values.host,
      reportDir: values["report-dir"],
      record: values.record,
      findingsHeader: values["findings-header"],
      failOnServiceFinding: values["fail-on-service-finding"],
    });
  } catch (error) {
    const known =
      error instanceof SettingError ||
      error instanceof SpecLoadError ||
      (error as NodeJS.ErrnoException).code === "EADDRINUSE";
    if (!known) throw error;
    return cannotStart(name, (error as Error).message);
  }
  const listening = `${name} proxy: listening on ${proxy.url}, forwarding to ${values.upstream}`;
  if (command.length === 0) {
    console.log(listening);
    const signals = interrupts(
      name,
      proxy,
      () => {},
      () => {},
    );
    await signals.firstSignal;
    const run = await proxy.stop();
    signals.remove();
    // Interrupted twice, the run exits as a shell reports an interrupt (130); the verdict is still printed.
    const code = finish(name, run, 0);
    return signals.interruptedCode() ?? code;
  }

  console.error(listening);
  const child = startChild(command[0]!, command.slice(1), {
    stdio: "inherit",
    env: { ...processEnvironment(), FILE_LIBRARY_BASE_URL: proxy.url },
  });
  let spawnError: Error | undefined;
  child.once("error", (error) => (spawnError = error));
  // The command owns the terminal's Ctrl-C as much as the proxy does: the signal is passed on, and the proxy stops at
  // once (new requests answered 503, those in flight given DRAIN_MS, the reports written), whatever the command then
  // takes to end; a second one stops it with SIGKILL and cuts the exchanges in flight.
  const ended = exitCodeOf(child);
  const signals = interrupts(
    name,
    proxy,
    (signal) => {
      signalChild(child, signal);
      // Awaited below, once the command has ended (stop() is one promise); its requests get a 503 until then.
      proxy.stop({ refuseUntil: ended }).catch(() => {});
    },
    () => signalChild(child, "SIGKILL"),
  );
  const code = await ended;
  const run = await proxy.stop();
  signals.remove();
  if (spawnError) {
    console.error(`${name} proxy: cannot run ${command[0]}: ${spawnError.message}`);
    return 127;
  }
  const verdict = finish(name, run, code);
  return signals.interruptedCode() ?? verdict;
}

/**
 * Prints the run's verdict in one line and says where the reports are. An upstream that answered nothing comes first
 * (exit 2, one line naming it: the run checked nothing), then the command's failure, then the verdict.
 */
function finish(name: string, run: ProxyRun, commandCode: number): number {
  const { summary } = run;
  if (summary.stopped) {
    console.error(`${name} proxy: ${summary.stopped}; reports in ${run.reportDir}`);
    return 2;
  }
  const sides = (side: string) => summary.findings.filter((f) => f.side === side).length;
  console.error(
    `${name} proxy: ${summary.exchanges} exchanges, ${summary.findings.length} kind(s) of finding (${sides("app")} app, ${sides("service")} service)` +
      `${summary.upstreamFailures.count ? `, ${summary.upstreamFailures.count} unanswered by the upstream` : ""}` +
      `${summary.cutAtStop ? ` (${summary.cutAtStop} cut as the proxy stopped)` : ""}` +
      `${summary.refusedWhileStopping.count ? `, ${summary.refusedWhileStopping.count} refused unchecked as the proxy stopped` : ""}` +
      `${summary.notChecked.length ? `, ${summary.notChecked.reduce((n, c) => n + c.count, 0)} not checked` : ""}; reports in ${run.reportDir}`,
  );
  return commandCode !== 0 ? commandCode : run.exitCode;
}

function cannotStart(name: string, message: string): number {
  console.error(`${name} proxy: cannot start: ${message}`);
  return 2;
}
