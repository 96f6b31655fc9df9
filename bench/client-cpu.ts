import createClient from "openapi-fetch";
import type { paths } from "../src/generated/schema.d.ts";
import { createFileLibraryClient } from "../src/index.ts";
import { createFakeFileLibrary } from "../sandbox/fake.ts";
import { fmt, median, type Section } from "./lib/report.ts";
import { count } from "./lib/progress.ts";
import { byRound } from "./lib/rounds.ts";

const CALLS = 8_000;
const ROUNDS = 7;
const BASE_URL = "http://bench.invalid";
const PATH = "/studio/v1/library/files/{file_id}";
const BODY = JSON.stringify({
  id: "file_bench",
  name: "report.pdf",
  size: 482113,
  created_at: "2026-03-14T09:26:53Z",
  labels: ["finance", "q1"],
});

/** A fetch with no network: every call resolves a prebuilt answer (built anew, as a body is read once). */
const localFetch = async (_input: unknown, _init?: unknown) =>
  new Response(BODY, { headers: { "content-type": "application/json", "x-request-id": "bench-1" } });

/** Microseconds of CPU (user and system) per call, over CALLS calls one after the other. */
async function cpuPerCall(call: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await call();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

/**
 * CPU per call of raw fetch, bare openapi-fetch and our client, without the network: what each layer itself costs.
 * Our client must take its own path (no injected fetch: the global one is replaced while it runs).
 */
export async function clientCpu(): Promise<Section> {
  const global = globalThis.fetch;
  globalThis.fetch = localFetch as typeof fetch;
  try {
    // Created now, the client takes the replaced global fetch as its transport.
    const bare = createClient<paths>({ baseUrl: BASE_URL, fetch: localFetch as typeof fetch });
    const ours = createFileLibraryClient({ baseUrl: BASE_URL, apiKey: "bench-key" });
    // The fake of file-library-kit/testing: the service's core in-process, as an app's tests call it.
    const fake = createFakeFileLibrary({
      apiKey: "bench-key",
      files: [{ id: "file_bench", name: "report.pdf", content: "x".repeat(64), labels: ["finance", "q1"] }],
    });
    const viaFake = createFileLibraryClient({ baseUrl: fake.baseUrl, apiKey: "bench-key", fetch: fake.fetch });
    const fakeUrl = `${fake.baseUrl}/studio/v1/library/files/file_bench`;
    const variants = {
      "raw fetch": async () => (await localFetch(`${BASE_URL}/studio/v1/library/files/file_bench`)).json(),
      "bare openapi-fetch": () => bare.GET(PATH, { params: { path: { file_id: "file_bench" } } }),
      "our client (defaults)": () => ours.files.get("file_bench"),
      "the fake's fetch alone (file-library-kit/testing)": async () =>
        (await fake.fetch(fakeUrl, { headers: { authorization: "Bearer bench-key" } })).json(),
      "our client through the fake's fetch": () => viaFake.files.get("file_bench"),
    };
    const rounds = new Map(Object.keys(variants).map((name) => [name, [] as number[]]));
    for (const call of Object.values(variants)) await cpuPerCall(call); // warm-up: JIT
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, call] of Object.entries(variants)) rounds.get(name)!.push(await cpuPerCall(call));
      count(round + 1, ROUNDS);
    }
    const mid = (name: string) => median(rounds.get(name)!);
    const over = (name: string) =>
      byRound(rounds.get(name)!, rounds.get("bare openapi-fetch")!, (us, bare) => us - bare);
    return {
      title: `Client CPU per call, no network (a fetch resolving a prebuilt answer): ${ROUNDS} rounds of ${CALLS} calls`,
      columns: ["variant", "median µs CPU per call", "over bare openapi-fetch"],
      rows: Object.keys(variants).map((name) => [
        name,
        fmt(mid(name), 1),
        name === "raw fetch" || name.startsWith("the fake") ? "" : fmt(median(over(name)), 1),
      ]),
      ratios: [
        { name: "our client's µs over bare openapi-fetch", rounds: over("our client (defaults)"), target: "small" },
        {
          name: "the fake's in-process cost per call, µs of CPU (its fetch alone)",
          rounds: rounds.get("the fake's fetch alone (file-library-kit/testing)")!,
          target: "for apps' test suites: small next to a loopback request",
        },
      ],
    };
  } finally {
    globalThis.fetch = global;
  }
}
