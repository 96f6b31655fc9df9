import createClient from "openapi-fetch";
import { createFileLibraryClient } from "../src/index.ts";
import type { paths } from "../src/generated/schema.d.ts";
import { fmt, percentile, type Section } from "./lib/report.ts";
import { startScriptServer } from "../scripts/lib/script-server.ts";

const CONCURRENCY = 16;
const REQUESTS_PER_ROUND = 3_000;
const ROUNDS = 5;
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

/** (a) raw fetch, (b) bare openapi-fetch and (c) our client, against one loopback server, interleaved in rounds. */
export async function clientOverhead(): Promise<Section> {
  const server = await startScriptServer("bench/metadata-server.ts");
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
    const totals = new Map(variants.map((v) => [v.name, { latencies: [] as number[], wallMs: 0, requests: 0 }]));
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order each round, so that drift in the machine's state hits every variant alike.
      const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
      for (const v of order) {
        const result = await load(v.call, REQUESTS_PER_ROUND);
        const t = totals.get(v.name)!;
        t.latencies.push(...result.latencies);
        t.wallMs += result.wallMs;
        t.requests += REQUESTS_PER_ROUND;
      }
    }
    const rps = (name: string) => {
      const t = totals.get(name)!;
      return t.requests / (t.wallMs / 1000);
    };
    return {
      title: `Client overhead: GET metadata, ${CONCURRENCY} concurrent, ${ROUNDS} interleaved rounds of ${REQUESTS_PER_ROUND}`,
      columns: ["variant", "req/s", "p50 ms", "p99 ms"],
      rows: variants.map((v) => {
        const t = totals.get(v.name)!;
        return [v.name, fmt(rps(v.name), 0), fmt(percentile(t.latencies, 50), 3), fmt(percentile(t.latencies, 99), 3)];
      }),
      ratios: [
        { name: "our client / raw fetch (throughput)", value: rps("our client (defaults)") / rps("raw fetch"), target: ">= 0.95" },
        { name: "our client / bare openapi-fetch (throughput)", value: rps("our client (defaults)") / rps("bare openapi-fetch"), target: "~1.00" },
      ],
    };
  } finally {
    await server.stop();
  }
}
