import autocannon from "autocannon";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { bundledSpec, fromRoot } from "../scripts/lib/paths.ts";
import { startPrism } from "../scripts/lib/prism.ts";
import { startScriptServer } from "../scripts/lib/script-server.ts";
import { serverLauncher, type CorePlan } from "./lib/cores.ts";
import { fmt, median, type Section } from "./lib/report.ts";
import { byRound, interleaved } from "./lib/rounds.ts";
import { LAYERS } from "./lib/sandbox-layers.ts";

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
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${KEY}` },
  });
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/**
 * The sandbox (auth, validation, SQLite, CORS, the request log) next to a bare node:http server answering the same
 * JSON, to the sandbox built up one layer at a time, and to a Prism mock of the same spec: the same request under
 * the same load, in interleaved rounds. Two sections: the throughput, and where one request's time goes.
 */
export async function sandboxThroughput(cores: CorePlan | { unpinned: string }): Promise<Section[]> {
  const launcher = serverLauncher(cores);
  const data = path.join(await mkdtemp(path.join(os.tmpdir(), "file-library-bench-")), "files.db");
  const env = { ...process.env, FILE_LIBRARY_API_KEY: KEY };
  const [bare, sandbox, prism, ...layers] = await Promise.all([
    startScriptServer("bench/metadata-server.ts", [], process.env, launcher),
    startScriptServer(
      "sandbox/main.ts",
      ["--data", data, "--fixtures", fromRoot("test/fixtures/sandbox-files.json")],
      env,
      launcher,
    ),
    startPrism(bundledSpec.yaml, launcher),
    ...LAYERS.map((_, i) =>
      startScriptServer("bench/sandbox-layers-server.ts", ["--layers", String(i + 1)], env, launcher),
    ),
  ]);
  try {
    const file = "/studio/v1/library/files/doc-1";
    const targets: Target[] = [
      { name: "bare node:http, same JSON", url: `${bare.url}${file}` },
      { name: "sandbox GET metadata (SQLite, log on)", url: `${sandbox.url}${file}` },
      { name: "sandbox GET download URL", url: `${sandbox.url}${file}/download` },
      { name: "Prism mock GET metadata", url: `${prism.url}${file}` },
      ...LAYERS.map((layer, i) => ({ name: `+ ${layer}`, url: `${layers[i]!.url}${file}` })),
    ];
    const samples = await interleaved(targets, ROUNDS, measure);
    const rps = (i: number) => samples.get(targets[i]!.name)!.map((s) => s.rps);
    const ratio = (a: number, b: number) => byRound(rps(a), rps(b));
    const errors = [...samples.values()].flat().reduce((sum, s) => sum + s.errors, 0);
    const notes = errors > 0 ? [`${errors} requests failed or were not 2xx: the numbers above are not valid`] : [];
    // The server is the bottleneck (one core, saturated): its time per request is the inverse of its rate.
    const micros = (i: number) => 1e6 / median(rps(i));
    const steps = [0, ...LAYERS.map((_, i) => 4 + i)];
    return [
      {
        title: `Sandbox throughput: autocannon, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per target`,
        columns: ["target", "median req/s", "median p50 ms", "median p99 ms"],
        rows: targets.slice(0, 4).map((t) => {
          const list = samples.get(t.name)!;
          return [
            t.name,
            fmt(median(list.map((s) => s.rps)), 0),
            fmt(median(list.map((s) => s.p50)), 1),
            fmt(median(list.map((s) => s.p99)), 1),
          ];
        }),
        ratios: [
          { name: "sandbox metadata / bare node:http", rounds: ratio(1, 0), target: ">= 0.5" },
          { name: "sandbox download URL / bare node:http", rounds: ratio(2, 0), target: ">= 0.5" },
          { name: "sandbox metadata / Prism mock", rounds: ratio(1, 3), target: "for comparison" },
        ],
        notes,
      },
      {
        title:
          "Where one sandbox request's time goes: the same GET metadata, the sandbox built up one layer at a time (same rounds)",
        columns: ["server", "median req/s", "µs per request", "µs this step adds"],
        rows: [
          ...steps.map((i, n) => [
            targets[i]!.name,
            fmt(median(rps(i)), 0),
            fmt(micros(i), 1),
            n === 0 ? "" : fmt(micros(i) - micros(steps[n - 1]!), 1),
          ]),
          [
            targets[1]!.name,
            fmt(median(rps(1)), 0),
            fmt(micros(1), 1),
            `${fmt(micros(1) - micros(steps.at(-1)!), 1)} (keep-alive policy, the real start-up)`,
          ],
        ],
        ratios: [],
        notes: ["µs per request is the server's time: its one core is saturated, so it is the inverse of its rate."],
      },
    ];
  } finally {
    await Promise.all([bare.stop(), sandbox.stop(), prism.stop(), ...layers.map((l) => l.stop())]);
  }
}
