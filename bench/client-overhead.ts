import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import createClient from "openapi-fetch";
import { createFileLibraryClient } from "../src/index.ts";
import type { paths } from "../src/generated/schema.d.ts";
import { levelledLogger } from "../src/logger.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, readLimited } from "../src/response-limit.ts";
import { decodeBody, parseMetadata } from "../src/response-body.ts";
import { sendWithRetries } from "../src/send.ts";
import { startScriptServer } from "../scripts/lib/script-server.ts";
import type { CorePlan } from "./lib/cores.ts";
import { serverLauncher } from "./lib/cores.ts";
import { fmt, median, percentile, type Section } from "./lib/report.ts";
import { byRound, interleaved } from "./lib/rounds.ts";

const CONCURRENCY = 16;
const REQUESTS_PER_ROUND = 2_500;
const ROUNDS = 9;
const KEY = "bench-key";
const ID = "file_bench";
const FILE = "/studio/v1/library/files/{file_id}";
const DOWNLOAD = "/studio/v1/library/files/{file_id}/download";
const TIMEOUT_MS = 60_000;

type Variant = { name: string; call: () => Promise<unknown> };
type Sample = { latencies: number[]; wallMs: number; cpuUs: number };

// A full collection before each sample, so that no variant pays for the garbage of the one before it.
v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Runs `total` calls, `CONCURRENCY` at a time; returns each call's latency, the wall time and this process's CPU time. */
async function load(call: () => Promise<unknown>, total: number): Promise<Sample> {
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

/** The body a guarded read gives: at most the default limit's bytes, fatal UTF-8, then the metadata's JSON check. */
async function guardedRead(response: Response) {
  const decoded = decodeBody((await readLimited(response.body, DEFAULT_MAX_RESPONSE_BYTES)).bytes);
  return decoded.ok ? parseMetadata(decoded.value) : decoded;
}

/**
 * Raw fetch, bare openapi-fetch and our client, for each of the three operations, against one loopback server in its
 * own process; and, for GET metadata, the client built up one layer at a time (each layer the kit's own code), so that
 * the table says where a call's time goes. All interleaved in rounds, with the client's process CPU per request.
 */
export async function clientOverhead(cores: CorePlan | { unpinned: string }): Promise<Section[]> {
  const server = await startScriptServer("bench/metadata-server.ts", [], process.env, serverLauncher(cores));
  try {
    const fileUrl = `${server.url}/studio/v1/library/files/${ID}`;
    const auth = { Authorization: `Bearer ${KEY}` };
    const bare = createClient<paths>({ baseUrl: server.url, headers: auth });
    const ours = createFileLibraryClient({ baseUrl: server.url, apiKey: KEY });
    const params = { params: { path: { file_id: ID } } };
    const log = levelledLogger(console, "warn");
    /** One GET with the client's own timeout: a signal per attempt that a timer aborts. */
    const timed = async (signal: AbortSignal) => {
      const response = await fetch(fileUrl, { method: "GET", headers: auth, redirect: "manual", signal });
      return { response, data: await readLimited(response.body, DEFAULT_MAX_RESPONSE_BYTES) };
    };
    const operations = {
      "GET metadata": [
        { name: "raw fetch", call: async () => (await fetch(fileUrl, { headers: auth })).json() },
        { name: "raw fetch with a timeout signal", call: async () => (await fetch(fileUrl, { headers: auth, signal: AbortSignal.timeout(TIMEOUT_MS) })).json() },
        { name: "bare openapi-fetch", call: () => bare.GET(FILE, params) },
        { name: "our client", call: () => ours.files.get(ID) },
      ],
      "PUT update": [
        { name: "raw fetch", call: async () => (await fetch(fileUrl, { method: "PUT", headers: { ...auth, "content-type": "application/json" }, body: '{"labels":["a"]}' })).text() },
        {
          name: "raw fetch with a timeout signal",
          call: async () => (await fetch(fileUrl, { method: "PUT", headers: { ...auth, "content-type": "application/json" }, body: '{"labels":["a"]}', signal: AbortSignal.timeout(TIMEOUT_MS) })).text(),
        },
        { name: "bare openapi-fetch", call: () => bare.PUT(FILE, { ...params, body: { labels: ["a"] } }) },
        { name: "our client", call: () => ours.files.update(ID, { labels: ["a"] }) },
      ],
      "GET download URL": [
        { name: "raw fetch", call: async () => (await fetch(`${fileUrl}/download`, { headers: auth })).text() },
        { name: "raw fetch with a timeout signal", call: async () => (await fetch(`${fileUrl}/download`, { headers: auth, signal: AbortSignal.timeout(TIMEOUT_MS) })).text() },
        { name: "bare openapi-fetch", call: () => bare.GET(DOWNLOAD, { ...params, parseAs: "text" }) },
        { name: "our client", call: () => ours.files.downloadUrl(ID) },
      ],
    } satisfies Record<string, Variant[]>;
    /** A 2xx body's bytes read as the client reads them: fatal UTF-8, then the metadata's JSON checks. */
    const parsed = (bytes: Uint8Array) => {
      const decoded = decodeBody(bytes);
      return decoded.ok ? parseMetadata(decoded.value) : decoded;
    };
    // Each layer adds one thing to the one before, so that the difference between two rows is that thing's cost.
    const layers: Variant[] = [
      { name: "layer: raw fetch, read with the guards (byte cap, fatal UTF-8, JSON object, names once)", call: async () => guardedRead(await fetch(fileUrl, { headers: auth })) },
      {
        name: "layer: + a signal of its own for fetch (what the timeout aborts)",
        call: async () => parsed((await timed(new AbortController().signal)).data.bytes),
      },
      {
        name: "layer: + the timer that aborts it",
        call: async () => {
          const controller = new AbortController();
          const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
          try {
            return parsed((await timed(controller.signal)).data.bytes);
          } finally {
            clearTimeout(timer);
          }
        },
      },
      {
        name: "layer: + sendWithRetries (the retry loop, the caller's signal, errors)",
        call: async () => {
          const answer = await sendWithRetries(
            { operation: "getFile", method: "GET", path: FILE, baseUrl: server.url, secrets: [KEY], log, maxRetries: 2, timeoutMs: TIMEOUT_MS, settlesOnAbort: true },
            timed,
          );
          return parsed(answer.body.bytes);
        },
      },
    ];
    const named = (operation: string, v: Variant) => ({ name: `${operation}: ${v.name}`, call: v.call });
    const variants = [...Object.entries(operations).flatMap(([operation, vs]) => vs.map((v) => named(operation, v))), ...layers];
    for (const v of variants) await load(v.call, 500); // warm-up: JIT, connection pool
    const results = await interleaved(variants, ROUNDS, (v) => load(v.call, REQUESTS_PER_ROUND));
    const rps = (name: string) => results.get(name)!.map((r) => REQUESTS_PER_ROUND / (r.wallMs / 1000));
    const cpu = (name: string) => results.get(name)!.map((r) => r.cpuUs / REQUESTS_PER_ROUND);
    const latencies = (name: string) => results.get(name)!.flatMap((r) => r.latencies);
    const row = (label: string, name: string) => [label, fmt(median(rps(name)), 0), fmt(median(cpu(name)), 1), fmt(percentile(latencies(name), 50), 3), fmt(percentile(latencies(name), 99), 3)];
    const columns = ["variant", "median req/s", "µs CPU per request", "p50 ms", "p99 ms"];
    const ratios = Object.keys(operations).flatMap((operation) => {
      const of = (v: string) => `${operation}: ${v}`;
      return [
        { name: `${operation}: our client / raw fetch (throughput)`, rounds: byRound(rps(of("our client")), rps(of("raw fetch"))), target: ">= 0.9" },
        // What an app that sets a timeout writes: the client always has one (30 s by default).
        { name: `${operation}: our client / raw fetch with a timeout signal (throughput)`, rounds: byRound(rps(of("our client")), rps(of("raw fetch with a timeout signal"))), target: ">= 0.95" },
        { name: `${operation}: our client / bare openapi-fetch (throughput)`, rounds: byRound(rps(of("our client")), rps(of("bare openapi-fetch"))), target: ">= 1.0" },
        { name: `${operation}: our client's CPU per request / bare openapi-fetch's`, rounds: byRound(cpu(of("our client")), cpu(of("bare openapi-fetch"))), target: "<= 1.1" },
      ];
    });
    const get = (v: string) => `GET metadata: ${v}`;
    const steps = [get("raw fetch"), ...layers.map((l) => l.name), get("our client")];
    return [
      {
        title: `Client overhead: the three operations, ${CONCURRENCY} concurrent, ${ROUNDS} interleaved rounds of ${REQUESTS_PER_ROUND}`,
        columns,
        rows: Object.entries(operations).flatMap(([operation, vs]) => vs.map((v) => row(`${operation}: ${v.name}`, `${operation}: ${v.name}`))),
        ratios,
      },
      {
        title: "Where a client call's time goes: GET metadata, built up one layer at a time (same rounds)",
        columns: ["step", "median req/s", "µs CPU per request", "µs this step adds"],
        rows: steps.map((name, i) => [
          name.replace(/^layer: /, "").replace(/^GET metadata: /, ""),
          fmt(median(rps(name)), 0),
          fmt(median(cpu(name)), 1),
          i === 0 ? "" : fmt(median(byRound(cpu(name), cpu(steps[i - 1]!), (a, b) => a - b)), 1),
        ]),
        ratios: [],
        notes: [
          "µs CPU per request is this process's (the load's) user and system time over the round: the server runs on other cores.",
          "The last step is the rest of the client: the id check, the options, the path, the headers and the result.",
        ],
      },
    ];
  } finally {
    await server.stop();
  }
}
