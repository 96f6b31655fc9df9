import { levelledLogger } from "../src/logger.ts";
import { DEFAULT_MAX_RESPONSE_BYTES, readLimited } from "../src/response-limit.ts";
import { decodeBody, parseMetadata } from "../src/response-body.ts";
import { sendWithRetries } from "../src/send.ts";
import { startScriptServer } from "../scripts/lib/script-server.ts";
import type { CorePlan } from "./lib/cores.ts";
import { serverLauncher } from "./lib/cores.ts";
import { fmt, median, percentile, type Section } from "./lib/report.ts";
import { byRound, interleaved } from "./lib/rounds.ts";
import {
  clientRatios,
  CONCURRENCY,
  FILE,
  ID,
  KEY,
  load,
  operationVariants,
  TIMEOUT_MS,
  type Variant,
} from "./lib/client-load.ts";

const REQUESTS_PER_ROUND = 2_500;
const ROUNDS = 9;

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
    const log = levelledLogger(console, "warn");
    /** One GET with the client's own timeout: a signal per attempt that a timer aborts. */
    const timed = async (signal: AbortSignal) => {
      const response = await fetch(fileUrl, { method: "GET", headers: auth, redirect: "manual", signal });
      return { response, data: await readLimited(response.body, DEFAULT_MAX_RESPONSE_BYTES) };
    };
    const operations = operationVariants(server.url);
    /** A 2xx body's bytes read as the client reads them: fatal UTF-8, then the metadata's JSON checks. */
    const parsed = (bytes: Uint8Array) => {
      const decoded = decodeBody(bytes);
      return decoded.ok ? parseMetadata(decoded.value) : decoded;
    };
    // Each layer adds one thing to the one before, so that the difference between two rows is that thing's cost.
    const layers: Variant[] = [
      {
        name: "layer: raw fetch, read with the guards (byte cap, fatal UTF-8, JSON object, names once)",
        call: async () => guardedRead(await fetch(fileUrl, { headers: auth })),
      },
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
            {
              operation: "getFile",
              method: "GET",
              path: FILE,
              baseUrl: server.url,
              secrets: [KEY],
              log,
              maxRetries: 2,
              timeoutMs: TIMEOUT_MS,
              settlesOnAbort: true,
            },
            timed,
          );
          return parsed(answer.data.bytes);
        },
      },
    ];
    const named = (operation: string, v: Variant) => ({ name: `${operation}: ${v.name}`, call: v.call });
    const variants = [
      ...Object.entries(operations).flatMap(([operation, vs]) => vs.map((v) => named(operation, v))),
      ...layers,
    ];
    for (const v of variants) await load(v.call, 500); // warm-up: JIT, connection pool
    const results = await interleaved(variants, ROUNDS, (v) => load(v.call, REQUESTS_PER_ROUND));
    const rps = (name: string) => results.get(name)!.map((r) => REQUESTS_PER_ROUND / (r.wallMs / 1000));
    const cpu = (name: string) => results.get(name)!.map((r) => r.cpuUs / REQUESTS_PER_ROUND);
    const latencies = (name: string) => results.get(name)!.flatMap((r) => r.latencies);
    const row = (label: string, name: string) => [
      label,
      fmt(median(rps(name)), 0),
      fmt(median(cpu(name)), 1),
      fmt(percentile(latencies(name), 50), 3),
      fmt(percentile(latencies(name), 99), 3),
    ];
    const columns = ["variant", "median req/s", "µs CPU per request", "p50 ms", "p99 ms"];
    const ratios = clientRatios(Object.keys(operations), rps, cpu, byRound);
    const get = (v: string) => `GET metadata: ${v}`;
    const steps = [get("raw fetch"), ...layers.map((l) => l.name), get("our client")];
    return [
      {
        title: `Client overhead: the three operations, ${CONCURRENCY} concurrent, ${ROUNDS} interleaved rounds of ${REQUESTS_PER_ROUND}`,
        columns,
        rows: Object.entries(operations).flatMap(([operation, vs]) =>
          vs.map((v) => row(`${operation}: ${v.name}`, `${operation}: ${v.name}`)),
        ),
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
