import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TestSpecification, Vitest } from "vitest/node";
import { repoRoot } from "../../scripts/lib/paths.ts";
import { EXPECTED_SECONDS, SlowFirstSequencer } from "../support/slow-first-sequencer.ts";
import { trackedFiles } from "../support/tracked-files.ts";

type Cached = { duration?: number; failed?: boolean };

/** A sequencer over a vitest whose cache knows `results` (by file) and `sizes`, as the last run and the disk left them. */
function sequencer(
  results: Record<string, Cached>,
  sizes: Record<string, number> = {},
  sequence: { shuffle?: boolean; seed?: number } = {},
) {
  const file = (key: string) => key.slice(key.indexOf(":") + 1);
  const ctx = {
    config: { root: repoRoot, sequence: { shuffle: false, seed: 0, ...sequence } },
    cache: {
      getFileTestResults: (key: string) => results[file(key)],
      getFileStats: (key: string) => (file(key) in sizes ? { size: sizes[file(key)] } : undefined),
    },
  };
  return new SlowFirstSequencer(ctx as unknown as Vitest);
}

const spec = (file: string) =>
  ({ moduleId: path.join(repoRoot, file), project: { name: "" } }) as unknown as TestSpecification;
const order = async (s: SlowFirstSequencer, files: string[]) =>
  (await s.sort(files.map(spec))).map((x) => path.relative(repoRoot, x.moduleId));

describe("SlowFirstSequencer", () => {
  it("names only test files that exist", () => {
    const tests = new Set(trackedFiles().filter((f) => f.endsWith(".test.ts")));
    expect(Object.keys(EXPECTED_SECONDS).filter((f) => !tests.has(f))).toEqual([]);
  });

  it("on a fresh clone (no cached durations) starts the slow files first, longest first, then the others by size", async () => {
    const files = [
      "test/client/errors.test.ts",
      "test/consumers/sandbox-package.test.ts",
      "test/client/retry.test.ts",
      "test/suite/contract-live.test.ts",
    ];
    const sizes = {
      "test/client/errors.test.ts": 100,
      "test/client/retry.test.ts": 900,
      "test/consumers/sandbox-package.test.ts": 10,
      "test/suite/contract-live.test.ts": 5,
    };
    expect(await order(sequencer({}, sizes), files)).toEqual([
      "test/suite/contract-live.test.ts",
      "test/consumers/sandbox-package.test.ts",
      "test/client/retry.test.ts",
      "test/client/errors.test.ts",
    ]);
  });

  it("with --sequence.shuffle, runs the files in an order drawn from the seed: the same seed, the same order", async () => {
    const files = Object.keys(EXPECTED_SECONDS);
    const bySeed = (seed: number) => order(sequencer({}, {}, { shuffle: true, seed }), files);
    const first = await bySeed(7);
    expect([...first].sort()).toEqual([...files].sort());
    expect(await bySeed(7)).toEqual(first);
    const others = await Promise.all([8, 9, 10].map(bySeed));
    expect(others.some((other) => other.join() !== first.join())).toBe(true);
    expect([first, ...others].some((o) => o.join() !== files.join())).toBe(true);
  });

  it("takes the last run's durations over the expected ones, and runs what failed last time first", async () => {
    const files = [
      "test/suite/contract-live.test.ts",
      "test/client/errors.test.ts",
      "test/consumers/sandbox-package.test.ts",
    ];
    // Longer than any file's expected seconds: the last run's duration decides.
    const cached = {
      "test/client/errors.test.ts": { duration: Math.max(...Object.values(EXPECTED_SECONDS)) * 1000 + 1 },
      "test/consumers/sandbox-package.test.ts": { duration: 10, failed: true },
    };
    expect(await order(sequencer(cached), files)).toEqual([
      "test/consumers/sandbox-package.test.ts",
      "test/client/errors.test.ts",
      "test/suite/contract-live.test.ts",
    ]);
  });
});
