/**
 * `npm run test:mutation`, its second half: StrykerJS mutates the suite's judges (contract-tests/checks/ and the proxy's
 * traffic rules) and runs their in-process unit tests (vitest.mutation-judges.config.ts) against each mutant. Fails
 * under 90%. Reports in reports/mutation-judges/.
 * @type {import("@stryker-mutator/api/core").PartialStrykerOptions}
 */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation-judges.config.ts", related: false },
  plugins: ["@stryker-mutator/vitest-runner"],
  // types.ts declares the checks' shapes; its few lines of code run in every test of a check.
  mutate: ["contract-tests/checks/**/*.ts", "contract-tests/proxy/traffic-rules.ts"],
  coverageAnalysis: "perTest",
  concurrency: 2,
  timeoutMS: 10_000,
  thresholds: { high: 95, low: 90, break: 90 },
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation-judges/index.html" },
  jsonReporter: { fileName: "reports/mutation-judges/mutation.json" },
  tempDirName: "node_modules/.cache/stryker-tmp-judges",
  cleanTempDir: "always",
};
