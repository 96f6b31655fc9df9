import createClient from "openapi-fetch";
import { createFileLibraryClient } from "../src/index.ts";
import type { paths } from "../src/generated/schema.d.ts";
import { startScriptServer } from "../scripts/lib/script-server.ts";
import type { CorePlan } from "./lib/cores.ts";
import { serverLauncher } from "./lib/cores.ts";
import { fmt, median, percentile, type Section } from "./lib/report.ts";
import { byRound, interleaved } from "./lib/rounds.ts";

const CONCURRENCY = 16;
const REQUESTS_PER_ROUND = 3_000;
const ROUNDS = 7;
const KEY = "bench-key";
const PATH = "/studio/v1/library/files/{file_id}";

type Variant = { name: string; call: () => Promise<unknown> };

/** Runs `total` calls, `CONCURRENCY` at a time; returns each call's latency and the wall time. */
async function load(call: () => Promise<unknown>, total: number): Promise<{ latencies: number[]; wallMs: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < total) {
        const t = performance.now();
        await call();
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}

/** (a) raw fetch, (b) bare openapi-fetch and (c) our client, against one loopback server in its own process, interleaved in rounds. */
export async function clientOverhead(cores: CorePlan | { unpinned: string }): Promise<Section> {
  const server = await startScriptServer("bench/metadata-server.ts", [], process.env, serverLauncher(cores));
  try {
    const url = `${server.url}/studio/v1/library/files/file_bench`;
    const bare = createClient<paths>({ baseUrl: server.url, headers: { Authorization: `Bearer ${KEY}` } });
    const ours = createFileLibraryClient({ baseUrl: server.url, apiKey: KEY });
    const variants: Variant[] = [
      { name: "raw fetch", call: async () => (await fetch(url, { headers: { authorization: `Bearer ${KEY}` } })).json() },
      { name: "bare openapi-fetch", call: () => bare.GET(PATH, { params: { path: { file_id: "file_bench" } } }) },
      { name: "our client (defaults)", call: () => ours.files.get("file_bench") },
    ];
    for (const v of variants) await load(v.call, 500); // warm-up: JIT, connection pool
    const results = await interleaved(variants, ROUNDS, (v) => load(v.call, REQUESTS_PER_ROUND));
    const rps = (name: string) => results.get(name)!.map((result) => REQUESTS_PER_ROUND / (result.wallMs / 1000));
    const latencies = (name: string) => results.get(name)!.flatMap((result) => result.latencies);
    const ratio = (a: string, b: string) => byRound(rps(a), rps(b));
    return {
      title: `Client overhead: GET metadata, ${CONCURRENCY} concurrent, ${ROUNDS} interleaved rounds of ${REQUESTS_PER_ROUND}`,
      columns: ["variant", "median req/s", "p50 ms", "p99 ms"],
      rows: variants.map((v) => [v.name, fmt(median(rps(v.name)), 0), fmt(percentile(latencies(v.name), 50), 3), fmt(percentile(latencies(v.name), 99), 3)]),
      ratios: [
        { name: "our client / raw fetch (throughput)", rounds: ratio("our client (defaults)", "raw fetch"), target: ">= 0.95" },
        { name: "our client / bare openapi-fetch (throughput)", rounds: ratio("our client (defaults)", "bare openapi-fetch"), target: ">= 0.83 (no regression)" },
      ],
    };
  } finally {
    await server.stop();
  }
}
