/**
 * One Node line's share of the client-lines bench, run by that line's `node --import tsx`: the three operations made
 * four ways against the server at argv[2], interleaved in rounds; writes each variant's per-round throughput and CPU
 * per request as JSON to argv[5]. Nothing here is judged; the parent computes the ratios.
 */
import { writeFile } from "node:fs/promises";
import { load, operationVariants } from "./lib/client-load.ts";
import { interleaved } from "./lib/rounds.ts";

const [baseUrl, rounds, perRound, out] = process.argv.slice(2);
if (!baseUrl || !rounds || !perRound || !out)
  throw new Error("usage: client-line.ts BASE_URL ROUNDS REQUESTS_PER_ROUND OUT.json");
const variants = Object.entries(operationVariants(baseUrl)).flatMap(([operation, vs]) =>
  vs.map((v) => ({ name: `${operation}: ${v.name}`, call: v.call })),
);
for (const v of variants) await load(v.call, 300); // warm-up: JIT, connection pool
const results = await interleaved(variants, Number(rounds), (v) => load(v.call, Number(perRound)));
const measures = Object.fromEntries(
  [...results].map(([name, samples]) => [
    name,
    {
      rps: samples.map((s) => Number(perRound) / (s.wallMs / 1000)),
      cpuUs: samples.map((s) => s.cpuUs / Number(perRound)),
    },
  ]),
);
await writeFile(out, JSON.stringify({ node: process.version, measures }));
