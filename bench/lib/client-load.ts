import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import createClient from "openapi-fetch";
import { createFileLibraryClient } from "../../src/index.ts";
import type { paths } from "../../src/generated/schema.d.ts";

/** Calls at once in a load: what an app's busy worker has in flight. */
export const CONCURRENCY = 16;
/** The key and the file id the bench's metadata server answers for. */
export const KEY = "bench-key";
export const ID = "file_bench";
export const FILE = "/studio/v1/library/files/{file_id}";
export const DOWNLOAD = "/studio/v1/library/files/{file_id}/download";
/** The timeout the timed variants give: long enough never to fire, so that only its bookkeeping is measured. */
export const TIMEOUT_MS = 60_000;

/** One way of making a call, named for the tables. */
export type Variant = { name: string; call: () => Promise<unknown> };
/** One load's measures: each call's latency, the wall time, and this process's CPU time in µs. */
export type Sample = { latencies: number[]; wallMs: number; cpuUs: number };

// A full collection before each sample, so that no variant pays for the garbage of the one before it.
v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Runs `total` calls, `CONCURRENCY` at a time; returns each call's latency, the wall time and this process's CPU time. */
export async function load(call: () => Promise<unknown>, total: number): Promise<Sample> {
  gc();
  const latencies: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
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
  const used = process.cpuUsage(cpu);
  return { latencies, wallMs: performance.now() - started, cpuUs: used.user + used.system };
}

/**
 * The three operations, each made four ways against the server at `baseUrl`: raw fetch, raw fetch given the timeout
 * signal an app that sets one would give, bare openapi-fetch, and our client (which always has a timeout).
 */
export function operationVariants(baseUrl: string): Record<string, Variant[]> {
  const fileUrl = `${baseUrl}/studio/v1/library/files/${ID}`;
  const auth = { Authorization: `Bearer ${KEY}` };
  const json = { ...auth, "content-type": "application/json" };
  const bare = createClient<paths>({ baseUrl, headers: auth });
  const ours = createFileLibraryClient({ baseUrl, apiKey: KEY });
  const params = { params: { path: { file_id: ID } } };
  const timeout = () => AbortSignal.timeout(TIMEOUT_MS);
  return {
    "GET metadata": [
      { name: "raw fetch", call: async () => (await fetch(fileUrl, { headers: auth })).json() },
      {
        name: "raw fetch with a timeout signal",
        call: async () => (await fetch(fileUrl, { headers: auth, signal: timeout() })).json(),
      },
      { name: "bare openapi-fetch", call: () => bare.GET(FILE, params) },
      { name: "our client", call: () => ours.files.get(ID) },
    ],
    "PUT update": [
      {
        name: "raw fetch",
        call: async () => (await fetch(fileUrl, { method: "PUT", headers: json, body: '{"labels":["a"]}' })).text(),
      },
      {
        name: "raw fetch with a timeout signal",
        call: async () =>
          (await fetch(fileUrl, { method: "PUT", headers: json, body: '{"labels":["a"]}', signal: timeout() })).text(),
      },
      { name: "bare openapi-fetch", call: () => bare.PUT(FILE, { ...params, body: { labels: ["a"] } }) },
      { name: "our client", call: () => ours.files.update(ID, { labels: ["a"] }) },
    ],
    "GET download URL": [
      { name: "raw fetch", call: async () => (await fetch(`${fileUrl}/download`, { headers: auth })).text() },
      {
        name: "raw fetch with a timeout signal",
        call: async () => (await fetch(`${fileUrl}/download`, { headers: auth, signal: timeout() })).text(),
      },
      { name: "bare openapi-fetch", call: () => bare.GET(DOWNLOAD, { ...params, parseAs: "text" }) },
      { name: "our client", call: () => ours.files.downloadUrl(ID) },
    ],
  };
}

/** The ratios the README states for the client, per operation, from each variant's per-round measures. */
export function clientRatios(
  operations: string[],
  rps: (name: string) => number[],
  cpu: (name: string) => number[],
  byRound: (a: number[], b: number[]) => number[],
) {
  return operations.flatMap((operation) => {
    const of = (v: string) => `${operation}: ${v}`;
    return [
      {
        name: `${operation}: our client / raw fetch (throughput)`,
        rounds: byRound(rps(of("our client")), rps(of("raw fetch"))),
        target: ">= 0.9",
      },
      // What an app that sets a timeout writes: the client always has one (30 s by default).
      {
        name: `${operation}: our client / raw fetch with a timeout signal (throughput)`,
        rounds: byRound(rps(of("our client")), rps(of("raw fetch with a timeout signal"))),
        target: ">= 0.95",
      },
      {
        name: `${operation}: our client / bare openapi-fetch (throughput)`,
        rounds: byRound(rps(of("our client")), rps(of("bare openapi-fetch"))),
        target: ">= 1.0",
      },
      {
        name: `${operation}: our client's CPU per request / bare openapi-fetch's`,
        rounds: byRound(cpu(of("our client")), cpu(of("bare openapi-fetch"))),
        target: "<= 1.1",
      },
    ];
  });
}
