/**
 * `npm run test:mutation`: StrykerJS mutates src/ (the client) and runs its unit tests (vitest.mutation.config.ts)
 * against each mutant; a mutant no test kills is a behaviour no test reads. Fails under 90%. Reports in reports/mutation/.
 * @type {import("@stryker-mutator/api/core").PartialStrykerOptions}
 */
export default {
  testRunner: "vitest",
  // Every test of the config runs in the dry run (their imports go through src/index.ts, which "related" cannot follow).
  vitest: { configFile: "vitest.mutation.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  mutate: ["src/**/*.ts", "!src/generated/**", "!src/index.ts"],
  coverageAnalysis: "perTest",
  concurrency: 2,
  timeoutMS: 10_000,
  thresholds: { high: 95, low: 90, break: 90 },
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  tempDirName: "node_modules/.cache/stryker-tmp",
  cleanTempDir: "always",
};
