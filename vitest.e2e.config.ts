import { configDefaults, defineConfig } from "vitest/config";
import base from "./vitest.config.ts";
import { E2E_TESTS } from "./test/support/test-tiers.ts";

/**
 * The end-to-end tier (`npm run test:e2e`): the tests that need other processes, installs, browsers, Java or other Node
 * lines (the list in test/support/test-tiers.ts), with the fast tier's settings. As Prism keeps its `test.harness`, the
 * OpenAI SDK its `ecosystem-tests` and Pact its `test:regression` apart from their unit tests (docs/development.md).
 */
export default defineConfig({
  test: {
    ...base.test,
    include: [...E2E_TESTS],
    exclude: [...configDefaults.exclude],
    // The packed packages, packed once per run in the main process for every test that installs one.
    globalSetup: ["test/support/bundled-spec.ts", "test/support/pack-service.ts"],
  },
});
