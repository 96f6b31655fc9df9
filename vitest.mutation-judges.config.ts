import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * The judges' unit tests, for `npm run test:mutation` (StrykerJS over contract-tests/checks/ and the proxy's traffic
 * rules, stryker.judges.config.mjs): the tests that call a check or a rule in this process. The whole-suite runs and
 * the proxy's server tests happen in other processes or take seconds a test: no mutant is seen sooner by them.
 */
export default defineConfig({
  test: {
    ...base.test,
    // Isolated, unlike the unit tests: StrykerJS's per-test coverage misses a module that another file loaded first
    // in the same worker (every mutant of it "not covered"), which isolation avoids.
    isolate: true,
    include: [
      "test/suite/checks/*.test.ts",
      "test/suite/traffic-rules.test.ts",
      "test/suite/fingerprint.test.ts",
      "test/suite/judge-traffic.test.ts",
      "test/suite/match-operation.test.ts",
      "test/suite/secret-echo.test.ts",
      "test/suite/near-ids.test.ts",
      "test/suite/url-forms.test.ts",
    ],
    reporters: ["dot"],
  },
});
