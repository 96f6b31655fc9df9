import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * The client's unit tests, for `npm run test:mutation` (StrykerJS over src/): the tests that call src/ in this
 * process. Tests of the packed package, of other processes and of the bundle size cannot see a mutant, and are left out.
 */
export default defineConfig({
  test: {
    ...base.test,
    include: [
      "test/base-url.test.ts",
      "test/cause.test.ts",
      "test/client-hostile.test.ts",
      "test/client-methods.test.ts",
      "test/client-msw.test.ts",
      "test/client-retries.test.ts",
      "test/errors.test.ts",
      "test/excerpt.test.ts",
      "test/fetch.test.ts",
      "test/file-id.test.ts",
      "test/logger.test.ts",
      "test/options.test.ts",
      "test/redact.test.ts",
      "test/response-body.test.ts",
      "test/response-limit.test.ts",
      "test/retry.test.ts",
      "test/secrets.test.ts",
      "test/send.test.ts",
    ],
    reporters: ["dot"],
  },
});
