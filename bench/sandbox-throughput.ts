import autocannon from "autocannon";
import { bundledSpec, fromRoot } from "../scripts/lib/paths.ts";
import { startPrism } from "../scripts/lib/prism.ts";
import { startScriptServer } from "../scripts/lib/script-server.ts";
import { serverLauncher, type CorePlan } from "./lib/cores.ts";
import { fmt, median, type Section } from "./lib/report.ts";
import { byRound, interleaved } from "./lib/rounds.ts";

const CONNECTIONS = 10;
const SECONDS = 1.5;
const ROUNDS = 7;
const KEY = "bench-key";

interface Target {
  name: string;
  url: string;
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(target: Target): Promise<Sample> {
  const result = await autocannon({ url: target.url, connections: CONNECTIONS, duration: SECONDS, headers: { authorization: `Bearer ${KEY}` } });
  return { rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/**
 * The sandbox (auth, validation, SQLite, logging) next to a bare node:http server answering the same JSON, and
 * next to a Prism mock of the same spec, for the same request under the same load, in interleaved rounds.
 */
export async function sandboxThroughput(cores: CorePlan | { unpinned: string }): Promise<Section> {
  const launcher = serverLauncher(cores);
  const [bare, sandbox, prism] = await Promise.all([
    startScriptServer("bench/metadata-server.ts", [], process.env, launcher),
    startScriptServer("sandbox/main.ts", ["--fixtures", fromRoot("test/fixtures/sandbox-files.json")], { ...process.env, FILE_LIBRARY_API_KEY: KEY }, launcher),
    startPrism(bundledSpec.yaml, launcher),
  ]);
  try {
    const file = "/studio/v1/library/files/doc-1";
    const targets: Target[] = [
      { name: "bare node:http, same JSON", url: `${bare.url}${file}` },
      { name: "sandbox GET metadata", url: `${sandbox.url}${file}` },
      { name: "sandbox GET download URL", url: `${sandbox.url}${file}/download` },
      { name: "Prism mock GET metadata", url: `${prism.url}${file}` },
    ];
    const samples = await interleaved(targets, ROUNDS, measure);
    const rps = (i: number) => samples.get(targets[i]!.name)!.map((s) => s.rps);
    const ratio = (a: number, b: number) => byRound(rps(a), rps(b));
    const errors = [...samples.values()].flat().reduce((sum, s) => sum + s.errors, 0);
    return {
      title: `Sandbox throughput: autocannon, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per target`,
      columns: ["target", "median req/s", "median p50 ms", "median p99 ms"],
      rows: targets.map((t) => {
        const list = samples.get(t.name)!;
        return [t.name, fmt(median(list.map((s) => s.rps)), 0), fmt(median(list.map((s) => s.p50)), 1), fmt(median(list.map((s) => s.p99)), 1)];
      }),
      ratios: [
        { name: "sandbox metadata / bare node:http", rounds: ratio(1, 0), target: ">= 0.35 (no regression)" },
        { name: "sandbox download URL / bare node:http", rounds: ratio(2, 0), target: ">= 0.32 (no regression)" },
        { name: "sandbox metadata / Prism mock", rounds: ratio(1, 3), target: "for comparison" },
      ],
      notes: errors > 0 ? [`${errors} requests failed or were not 2xx: the numbers above are not valid`] : [],
    };
  } finally {
    await Promise.all([bare.stop(), sandbox.stop(), prism.stop()]);
  }
}
