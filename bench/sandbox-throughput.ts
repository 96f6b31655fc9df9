import autocannon from "autocannon";
import { fromRoot } from "../scripts/lib/paths.ts";
import { fmt, type Section } from "./lib/report.ts";
import { startScriptServer } from "../scripts/lib/script-server.ts";

const CONNECTIONS = 10;
const SECONDS = 3;
const ROUNDS = 2;
const KEY = "bench-key";

interface Target {
  name: string;
  url: string;
}

async function measure(target: Target): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${KEY}` },
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** The sandbox (auth, validation, SQLite, logging) next to a bare node:http server answering the same JSON. */
export async function sandboxThroughput(): Promise<Section> {
  const bare = await startScriptServer("bench/metadata-server.ts");
  const sandbox = await startScriptServer("sandbox/main.ts", ["--fixtures", fromRoot("test/fixtures/sandbox-files.json")], {
    ...process.env,
    FILE_LIBRARY_API_KEY: KEY,
  });
  try {
    const targets: Target[] = [
      { name: "bare node:http, same JSON", url: `${bare.url}/studio/v1/library/files/doc-1` },
      { name: "sandbox GET metadata", url: `${sandbox.url}/studio/v1/library/files/doc-1` },
      { name: "sandbox GET download URL", url: `${sandbox.url}/studio/v1/library/files/doc-1/download` },
    ];
    const samples = new Map(targets.map((t) => [t.name, [] as Array<Awaited<ReturnType<typeof measure>>>]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) samples.get(target.name)!.push(await measure(target));
    }
    const mean = (name: string, key: "rps" | "p50" | "p99") => {
      const list = samples.get(name)!;
      return list.reduce((sum, s) => sum + s[key], 0) / list.length;
    };
    const errors = [...samples.values()].flat().reduce((sum, s) => sum + s.errors, 0);
    return {
      title: `Sandbox throughput: autocannon, ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s per target`,
      columns: ["target", "req/s", "p50 ms", "p99 ms"],
      rows: targets.map((t) => [t.name, fmt(mean(t.name, "rps"), 0), fmt(mean(t.name, "p50"), 1), fmt(mean(t.name, "p99"), 1)]),
      ratios: [
        { name: "sandbox metadata / bare node:http", value: mean(targets[1]!.name, "rps") / mean(targets[0]!.name, "rps"), target: ">= 0.50" },
        { name: "sandbox download URL / bare node:http", value: mean(targets[2]!.name, "rps") / mean(targets[0]!.name, "rps"), target: ">= 0.50" },
      ],
      notes: errors > 0 ? [`${errors} requests failed or were not 2xx: the numbers above are not valid`] : [],
    };
  } finally {
    await Promise.all([bare.stop(), sandbox.stop()]);
  }
}
