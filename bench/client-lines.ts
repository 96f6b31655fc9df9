import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runCommand } from "../lib/process.ts";
import { fromRoot, repoRoot } from "../scripts/lib/paths.ts";
import { NODE_LINES, registryNode } from "../scripts/lib/registry-node.ts";
import { startScriptServer } from "../scripts/lib/script-server.ts";
import { clientRatios, operationVariants } from "./lib/client-load.ts";
import type { CorePlan } from "./lib/cores.ts";
import { serverLauncher } from "./lib/cores.ts";
import { count } from "./lib/progress.ts";
import { fmt, median, type Section } from "./lib/report.ts";
import { byRound } from "./lib/rounds.ts";

/**
 * Node 20's last release, which reached its end of life in April 2026: the line the client's earlier ratios were
 * measured on (0.84–0.88× raw fetch, most of it Node 20's per-signal work in fetch), kept beside the supported lines so
 * that the table shows what moving on bought.
 */
const BASELINE = "20.20.2";
// Many short rounds rather than a few long ones: on a shared machine the median of the rounds is what holds still.
const ROUNDS = 9;
const REQUESTS_PER_ROUND = 800;

type Measures = Record<string, { rps: number[]; cpuUs: number[] }>;

/**
 * The client's ratios to raw fetch (with and without a timeout signal) and to bare openapi-fetch, on Node 20 and on
 * every supported line, each Node from the npm registry: one child per line, one after the other, against one server
 * on the servers' cores, each with its variants interleaved in rounds. A ratio compares variants measured side by side
 * in the same child.
 */
export async function clientLines(cores: CorePlan | { unpinned: string }): Promise<Section[]> {
  const lines = [BASELINE, ...NODE_LINES];
  const nodes = await Promise.all(lines.map(registryNode));
  const server = await startScriptServer("bench/metadata-server.ts", [], process.env, serverLauncher(cores));
  const scratch = await mkdtemp(path.join(os.tmpdir(), "client-lines-"));
  try {
    const byLine = new Map<string, Measures>();
    for (const [i, node] of nodes.entries()) {
      const out = path.join(scratch, `${node.version}.json`);
      const ran = await runCommand(
        node.node,
        [
          "--import",
          "tsx",
          fromRoot("bench/client-line.ts"),
          server.url,
          String(ROUNDS),
          String(REQUESTS_PER_ROUND),
          out,
        ],
        { cwd: repoRoot, env: node.env },
      );
      if (ran.code !== 0)
        throw new Error(`client-lines: Node ${node.version} failed (exit ${ran.code}):\n${ran.output}`);
      byLine.set(node.version, (JSON.parse(await readFile(out, "utf8")) as { measures: Measures }).measures);
      count(i + 1, nodes.length, "Node line");
    }
    // The children's variant names, from the same list they were built from (only the names are used here).
    const named = Object.entries(operationVariants(server.url));
    const operations = named.map(([operation]) => operation);
    const variants = named.flatMap(([operation, vs]) => vs.map((v) => `${operation}: ${v.name}`));
    return lines.map((version) => {
      const measures = byLine.get(version)!;
      const rps = (name: string) => measures[name]!.rps;
      const cpu = (name: string) => measures[name]!.cpuUs;
      return {
        title: `Client ratios on Node ${version}${version === BASELINE ? " (end of life; the baseline)" : ""}: ${ROUNDS} interleaved rounds of ${REQUESTS_PER_ROUND}, 16 concurrent`,
        columns: ["variant", "median req/s", "µs CPU per request"],
        rows: variants.map((name) => [name, fmt(median(rps(name)), 0), fmt(median(cpu(name)), 1)]),
        ratios: clientRatios(operations, rps, cpu, byRound),
      };
    });
  } finally {
    await server.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}
