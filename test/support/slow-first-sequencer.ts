import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Seconds that the slow test files took in a fresh clone's `.ci/run` on 2 cores with nothing else running
 * (2026-11-26), for a run that has no durations of its own yet: a fresh clone, as CI has. Without them vitest starts
 * the largest files first, and a slow small file (the sandbox package's, once 70 s) started last, alone on one core.
 * The Node lines' file is slow there mostly in waiting: for the three packs, the two Nodes' downloads and installs.
 * An entry that is off costs only order; a file under 10 s needs none.
 */
export const EXPECTED_SECONDS: Readonly<Record<string, number>> = {
  "test/suite/contract-live.test.ts": 242,
  "test/consumers/node-lines.test.ts": 187,
  "test/suite/contract-rate-limits.test.ts": 65,
  "test/consumers/doc-samples-run.test.ts": 63,
  "test/consumers/specmatic.test.ts": 62,
  "test/repo/readme-commands.test.ts": 53,
  "test/consumers/contract-package.test.ts": 49,
  "test/consumers/client-package.test.ts": 33,
  "test/suite/proxy.test.ts": 33,
  "test/consumers/contract-package-proxy.test.ts": 29,
  "test/suite/contract-connections.test.ts": 22,
  "test/repo/command-line.test.ts": 21,
  "test/consumers/generator-kubb.test.ts": 18,
  "test/suite/proxy-memory.test.ts": 17,
  "test/suite/contract-hostile.test.ts": 16,
  "test/suite/mock-lifecycle.test.ts": 16,
  "test/consumers/sandbox-package.test.ts": 13,
  "test/spec/spec-tooling.test.ts": 13,
  "test/suite/key-spelling.test.ts": 12,
  "test/spec/docs-site.test.ts": 12,
  "test/suite/suite-output.test.ts": 10,
};

/** Fisher-Yates with a seeded generator (mulberry32): the same seed, the same order. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * vitest's order (files that failed last time first, then the longest first), with the durations above for files
 * that the last run's cache does not know: the longest files start first, so that none starts last on a fresh clone.
 * With `--sequence.shuffle` the files run in an order drawn from the run's seed, as with vitest's own sequencer.
 */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { shuffle, seed } = this.ctx.config.sequence;
    if (shuffle) return shuffled(files, seed);
    const root = this.ctx.config.root;
    const known = (spec: TestSpecification) => {
      const file = path.relative(root, spec.moduleId).split(path.sep).join("/");
      const key = `${spec.project.name}:${file}`;
      const cached = this.ctx.cache.getFileTestResults(key);
      return {
        failed: cached?.failed ?? false,
        ms: cached?.duration ?? (EXPECTED_SECONDS[file] ?? 0) * 1000,
        size: this.ctx.cache.getFileStats(key)?.size ?? 0,
      };
    };
    const keyed = files.map((spec) => ({ spec, ...known(spec) }));
    keyed.sort((a, b) => Number(b.failed) - Number(a.failed) || b.ms - a.ms || b.size - a.size);
    return keyed.map(({ spec }) => spec);
  }
}
