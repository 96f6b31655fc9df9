import { parseArgs } from "node:util";
import { exitCodeOf, signalChild, startChild } from "../../lib/process.ts";
import { SpecLoadError } from "../../lib/openapi/bundled-document.ts";
import { processEnvironment, SettingError } from "../run/settings.ts";
import { startProxy, type ProxyRun } from "../proxy/start-proxy.ts";

/** What `proxy --help` prints. */
export function proxyHelp(name: string): string {
  return `Usage: ${name} proxy --upstream URL [--port N] [--host H] [--report-dir DIR] [--record FILE] [-- command args...]

Forwards every request to the upstream unchanged, and judges each exchange against the spec, in both
directions: the app's request (the operation, its path parameter, Content-Type, body and key) and the
service's answer (status, media type, body, headers: the contract suite's own checks), and across
exchanges (an accepted update shows in the next read; a file does not come and go; no field but labels
and publicUrl changes between reads). Nothing is changed, delayed or refused.

With a command after --, it runs the command with FILE_LIBRARY_BASE_URL set to the proxy, then writes the
reports and exits with the command's status, or 1 when the traffic broke the contract. Without one, it runs
until SIGINT or SIGTERM, then writes the reports; exit 1 when the traffic broke the contract.

Flags:
  --upstream URL     the service the traffic goes to (required)
  --port N           port to listen on (default: a free one; the URL is printed)
  --host H           address to listen on (default 127.0.0.1)
  --report-dir DIR   folder of proxy-junit.xml, proxy-summary.json and .md (default: FILE_LIBRARY_REPORT_DIR, else reports)
  --record FILE      write every exchange to FILE as JSON Lines, one a line, the key and every
                     secret redacted (format file-library-recording/1; replay it with \`replay FILE\`)
  -h, --help         show this text

Environment: FILE_LIBRARY_API_KEY (redacted wherever it would show; every bearer token that passes is too),
FILE_LIBRARY_MAX_RESPONSE_BYTES (bodies longer than this pass unjudged, default 1048576), FILE_LIBRARY_SPEC.

Exit codes: 0 the traffic kept the contract, 1 it broke it (or the command's own status), 2 the proxy could not
start, 127 the command could not be run.`;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** Runs `proxy` from its argv (after the word `proxy`); resolves with the exit code. */
export async function runProxyCommand(argv: string[], name: string): Promise<number> {
  const split = argv.indexOf("--");
  const flags = split === -1 ? argv : argv.slice(0, split);
  const command = split === -1 ? [] : argv.slice(split + 1);
  let values;
  try {
    ({ values } = parseArgs({
      args: flags,
      options: { upstream: { type: "string" }, port: { type: "string" }, host: { type: "string" }, "report-dir": { type: "string" }, record: { type: "string" }, help: { type: "boolean", short: "h" } },
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
  if (!values.upstream) return cannotStart(name, `--upstream URL is required: the service the traffic goes to (see ${name} proxy --help)`);
  if (split !== -1 && command.length === 0) return cannotStart(name, "nothing after --: give the command to run through the proxy, or leave out --");
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) return cannotStart(name, `--port takes a port number (0 for a free one), got ${JSON.stringify(values.port)}`);

  let proxy;
  try {
    proxy = await startProxy({ upstream: values.upstream, port, host: values.host, reportDir: values["report-dir"], record: values.record });
  } catch (error) {
    const known = error instanceof SettingError || error instanceof SpecLoadError || (error as NodeJS.ErrnoException).code === "EADDRINUSE";
    if (!known) throw error;
    return cannotStart(name, (error as Error).message);
  }
  const listening = `${name} proxy: listening on ${proxy.url}, forwarding to ${values.upstream}`;
  if (command.length === 0) {
    console.log(listening);
    const signal = await new Promise<string>((resolve) => {
      for (const s of SIGNALS) process.once(s, () => resolve(s));
    });
    console.error(`${name} proxy: ${signal}: writing the reports`);
    return finish(name, await proxy.stop(), 0);
  }

  console.error(listening);
  const child = startChild(command[0]!, command.slice(1), { stdio: "inherit", env: { ...processEnvironment(), FILE_LIBRARY_BASE_URL: proxy.url } });
  let spawnError: Error | undefined;
  child.once("error", (error) => (spawnError = error));
  // The command owns the terminal's Ctrl-C as much as the proxy does: the signal is passed on, and the reports are
  // written once it has ended.
  const forward = (signal: NodeJS.Signals) => () => signalChild(child, signal);
  const handlers = SIGNALS.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  const code = await exitCodeOf(child);
  for (const [signal, handler] of handlers) process.off(signal, handler);
  const run = await proxy.stop();
  if (spawnError) {
    console.error(`${name} proxy: cannot run ${command[0]}: ${spawnError.message}`);
    return 127;
  }
  return finish(name, run, code);
}

/** Prints the run's verdict in one line and says where the reports are; the command's failure comes first. */
function finish(name: string, run: ProxyRun, commandCode: number): number {
  const { summary } = run;
  const sides = (side: string) => summary.findings.filter((f) => f.side === side).length;
  console.error(
    `${name} proxy: ${summary.exchanges} exchanges, ${summary.findings.length} kind(s) of finding (${sides("app")} app, ${sides("service")} service)` +
      `${summary.upstreamFailures.count ? `, ${summary.upstreamFailures.count} unanswered by the upstream` : ""}` +
      `${summary.notChecked.length ? `, ${summary.notChecked.reduce((n, c) => n + c.count, 0)} not checked` : ""}; reports in ${run.reportDir}`,
  );
  return commandCode !== 0 ? commandCode : run.exitCode;
}

function cannotStart(name: string, message: string): number {
  console.error(`${name} proxy: cannot start: ${message}`);
  return 2;
}
