import path from "node:path";
import { defineConfig } from "vitest/config";
import { suiteCacheDir } from "./run/cache-dir.ts";
import { checkDeadlineMs } from "./run/deadline.ts";
import { processSettings } from "./run/settings.ts";

// The same config runs as source in the kit's repo and compiled in the published package.
const here = import.meta.dirname;
const ext = path.extname(import.meta.filename);
const settings = processSettings();
// runSuite always passes an absolute folder; relative ones are taken from where the run started.
const reportDir = path.resolve(settings.reportDir ?? "reports");
// vitest's caches: in the temp folder, one folder per copy of the suite and per lockfile (see suiteCacheDir).
const cacheDir = suiteCacheDir(here);

/** The contract suite: checks one target (a live server, or the Prism mock the runner started) against the bundled spec. */
export default defineConfig({
  cacheDir,
  test: {
    root: here,
    include: [`*.contract.test${ext}`],
    // vitest skips node_modules by default, and that is where the published suite lives.
    exclude: [],
    globalSetup: [`./run/global-setup${ext}`],
    setupFiles: [`./run/setup${ext}`],
    // One file at a time: checks against a live server stay ordered and light, and write checks never overlap.
    fileParallelism: false,
    // One worker, reused: the files share no state that isolation would protect, and a fresh worker per
    // file cost more than the checks themselves (bench/suite-time.ts).
    pool: "threads",
    isolate: false,
    // Derived from the request budget and timeout, not from wall time: a busy machine makes checks slower, not wrong.
    testTimeout: checkDeadlineMs(settings),
    // With FILE_LIBRARY_SHUFFLE, files and checks run in an order drawn from the run's seed: a verdict must not depend on it.
    ...(settings.shuffle ? { sequence: { shuffle: { files: true, tests: true }, seed: settings.seed } } : {}),
    hookTimeout: 60_000,
    // Transformed modules kept between runs: a run after the first starts 0.2 s sooner (bench/suite-time.ts).
    experimental: { fsModuleCache: true, fsModuleCachePath: path.join(cacheDir, "modules") },
    // The summary reporter by path: imported here, vite would bundle the whole suite into this config and hash it
    // into every module's cache key, about 6% of a run's CPU.
    // The suite's own: a line per check as it ends, then the failures once, one total and every report (JUnit
    // included) written by the summary reporter; vitest's would print its own totals, stack frames and file names.
    reporters: [path.join(here, `run/progress-reporter${ext}`), [path.join(here, `run/summary-reporter${ext}`), { reportDir }]],
  },
});
