import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * The client's unit tests, for `npm run test:mutation` (StrykerJS over src/): the tests that call src/ in this
 * process. Tests of the packed package, of other processes and of the bundle size cannot see a mutant, and are left out.
 */
export default defineConfig({
  test: {
    ...base.test,
    // Isolated, unlike the unit tests: StrykerJS's per-test coverage misses a module that another file loaded first
    // in the same worker (every mutant of it "not covered"), which isolation avoids.
    isolate: true,
    include: [
      "test/client/base-url.test.ts",
      "test/client/cause.test.ts",
      "test/client/client-hostile.test.ts",
      "test/client/client-methods.test.ts",
      "test/client/client-msw.test.ts",
      "test/client/client-retries.test.ts",
      "test/client/errors.test.ts",
      "test/client/excerpt.test.ts",
      "test/client/fetch.test.ts",
      "test/client/file-id.test.ts",
      "test/client/http-date.test.ts",
      "test/client/invalid-utf8.test.ts",
      "test/client/json-names.test.ts",
      "test/client/logger.test.ts",
      "test/client/metadata-members.test.ts",
      "test/client/options.test.ts",
      "test/client/redact.test.ts",
      "test/client/response-body.test.ts",
      "test/client/response-limit.test.ts",
      "test/client/retry.test.ts",
      "test/client/secrets.test.ts",
      "test/client/send.test.ts",
    ],
    reporters: ["dot"],
  },
});
