import autocannon from "autocannon";
import { Agent, request } from "undici";
import { startServer, type ServerProcess } from "../lib/process.ts";
import { bundledSpec, fromRoot, repoRoot } from "../scripts/lib/paths.ts";
import { startPrism } from "../scripts/lib/prism.ts";
import { buildServers } from "./lib/built-servers.ts";
import { serverLauncher, type CorePlan } from "./lib/cores.ts";
import { fmt, median, type Section } from "./lib/report.ts";
import { byRound, interleaved } from "./lib/rounds.ts";

const CONNECTIONS = 10;
const SECONDS = 1.5;
const ROUNDS = 7;
// Sequential requests per round and target for the latency: one at a time, so that the time added is the proxy's own.
const LATENCY_REQUESTS = 400;
const KEY = "bench-key";
const FILE = "/studio/v1/library/files/doc-1";

interface Target {
  name: string;
  url: string;
}

interface Sample {
  rps: number;
  /** Median ms of one request at a time. */
  latency: number;
  errors: number;
}

const agent = new Agent();

async function measure(target: Target): Promise<Sample> {
  const load = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${KEY}` },
  });
  const times: number[] = [];
  for (let i = 0; i < LATENCY_REQUESTS; i++) {
    const started = performance.now();
    const { body, statusCode } = await request(target.url, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${KEY}` },
    });
    await body.arrayBuffer();
    if (statusCode !== 200) throw new Error(`${target.name} answered ${statusCode}`);
    times.push(performance.now() - started);
  }
  return { rps: load.requests.total / load.duration, latency: median(times), errors: load.errors + load.non2xx };
}

/**
 * GET metadata from the sandbox three ways: directly, through the kit's validating proxy, and through `prism proxy`
 * (Prism's validation proxy, the one teams know): throughput under load and the latency of one request at a time,
 * in interleaved rounds. Each proxy runs in a process of its own, in front of the same sandbox.
 */
export async function proxyThroughput(cores: CorePlan | { unpinned: string }): Promise<Section[]> {
  const launcher = serverLauncher(cores);
  const built = await buildServers();
  // Each a built package's JavaScript under plain node, as users run it (bench/lib/built-servers.ts).
  const serve = (file: string, args: string[], ready: RegExp, what: string, env: NodeJS.ProcessEnv = process.env) =>
    startServer(process.execPath, [file, ...args], { launcher, cwd: repoRoot, env, ready, timeoutMs: 30_000, what });
  const listeningAt = /listening at (http:\/\/\S+)/;
  const sandbox = await serve(
    built.sandbox,
    ["--fixtures", fromRoot("test/fixtures/sandbox-files.json")],
    listeningAt,
    "The sandbox",
    { ...process.env, FILE_LIBRARY_API_KEY: KEY },
  );
  const relay = (mode: "http" | "tcp") =>
    serve(built.relay, ["--mode", mode, "--upstream", sandbox.url], listeningAt, `The ${mode} relay`);
  const started = await Promise.allSettled([
    serve(
      built.contractCli,
      ["proxy", "--upstream", sandbox.url, "--report-dir", fromRoot("reports/bench-proxy")],
      /listening on (http:\/\/\S+),/,
      "The contract proxy",
      { ...process.env, FILE_LIBRARY_API_KEY: KEY },
    ),
    startPrism(bundledSpec.yaml, launcher, { proxyTo: sandbox.url }),
    relay("http"),
    relay("tcp"),
  ]);
  const running = started.flatMap((one) => (one.status === "fulfilled" ? [one.value] : []));
  const failed = started.find((one) => one.status === "rejected");
  if (failed) {
    // One that could not start stops the section: those that did are stopped first, the sandbox last.
    await Promise.all(running.map((server) => server.stop()));
    await sandbox.stop();
    throw failed.reason;
  }
  const [ours, prism, httpRelay, tcpRelay] = running as [ServerProcess, ServerProcess, ServerProcess, ServerProcess];
  try {
    const targets: Target[] = [
      { name: "direct to the sandbox", url: `${sandbox.url}${FILE}` },
      { name: "through the contract proxy", url: `${ours.url}${FILE}` },
      { name: "through prism proxy", url: `${prism.url}${FILE}` },
      { name: "ceiling: the proxy's transport, judging nothing", url: `${httpRelay.url}${FILE}` },
      { name: "ceiling: a TCP relay, no HTTP parsed", url: `${tcpRelay.url}${FILE}` },
    ];
    const samples = await interleaved(targets, ROUNDS, measure);
    const of = (i: number, pick: (s: Sample) => number) => samples.get(targets[i]!.name)!.map(pick);
    const rps = (i: number) => of(i, (s) => s.rps);
    const errors = [...samples.values()].flat().reduce((sum, s) => sum + s.errors, 0);
    return [
      {
        title: `The contract proxy: GET metadata from the sandbox, autocannon ${CONNECTIONS} connections for ${SECONDS} s, then ${LATENCY_REQUESTS} requests one at a time; ${ROUNDS} interleaved rounds`,
        columns: ["target", "median req/s", "median ms, one at a time"],
        rows: targets.map((t, i) => [t.name, fmt(median(rps(i)), 0), fmt(median(of(i, (s) => s.latency)), 3)]),
        // The three targets of issue 44, side by side: judging costs at most a quarter of the proxy's own transport, the
        // proxy is 5 times Prism's, and a request through it takes under 0.3 ms more than direct.
        ratios: [
          {
            name: "contract proxy / its transport judging nothing, throughput",
            rounds: byRound(rps(1), rps(3)),
            target: ">= 0.75",
          },
          { name: "contract proxy / prism proxy, throughput", rounds: byRound(rps(1), rps(2)), target: ">= 5" },
          {
            name: "contract proxy, ms added to one request's median",
            rounds: byRound(
              of(1, (s) => s.latency),
              of(0, (s) => s.latency),
              (a, b) => a - b,
            ),
            target: "< 0.3",
          },
          {
            name: "contract proxy / direct, throughput",
            rounds: byRound(rps(1), rps(0)),
            target: "what judging and forwarding cost against no proxy",
          },
          {
            name: "ceiling, the proxy's transport judging nothing / direct, throughput",
            rounds: byRound(rps(3), rps(0)),
            target: "what any proxy on node:http and undici can reach",
          },
          {
            name: "ceiling, a TCP relay / direct, throughput",
            rounds: byRound(rps(4), rps(0)),
            target: "what any proxy in Node can reach",
          },
        ],
        notes: [
          "The relays and the proxies run on the servers' core beside the sandbox, as the proxy does: through one, that core serves the relay's exchange and the sandbox's request.",
          ...(errors > 0 ? [`${errors} requests failed or were not 2xx: the numbers above are not valid`] : []),
        ],
      },
    ];
  } finally {
    await Promise.all([ours.stop(), prism.stop(), httpRelay.stop(), tcpRelay.stop()]);
    await sandbox.stop();
  }
}
