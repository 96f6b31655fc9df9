import { defineConfig } from "vitest/config";
import path from "node:path";
import SummaryReporter from "./support/summary-reporter.ts";

const reportDir = process.env.FILE_LIBRARY_REPORT_DIR ?? "reports";

/** The contract suite: checks one target (the Prism mock by default) against the bundled spec. */
export default defineConfig({
  test: {
    root: path.resolve(import.meta.dirname, ".."),
    include: ["contract-tests/**/*.contract.test.ts"],
    globalSetup: ["contract-tests/support/global-setup.ts"],
    setupFiles: ["contract-tests/support/setup.ts"],
    // One file at a time: checks against a live server stay ordered and light, and write checks never overlap.
    fileParallelism: false,
    // One worker, reused: the files share no state that isolation would protect, and a fresh worker per
    // file cost more than the checks themselves (bench/suite-time.ts).
    pool: "threads",
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["verbose", "junit", new SummaryReporter(reportDir)],
    outputFile: { junit: path.join(reportDir, "contract-junit.xml") },
  },
});
