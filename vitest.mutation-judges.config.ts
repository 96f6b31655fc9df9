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
    include: ["test/suite/checks/*.test.ts", "test/suite/traffic-rules.test.ts", "test/suite/fingerprint.test.ts", "test/suite/judge-traffic.test.ts", "test/suite/match-operation.test.ts"],
    reporters: ["dot"],
  },
});
