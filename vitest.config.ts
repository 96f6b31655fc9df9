import { enableCompileCache } from "node:module";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { SlowFirstSequencer } from "./test/support/slow-first-sequencer.ts";
import { E2E_TESTS } from "./test/support/test-tiers.ts";

// Every Node process the tests start (the suite's hundreds of vitest runs, the CLIs, the packed packages) keeps V8's
// code of the modules it compiles, and the next one loads it: 0.1 to 0.4 s of CPU less per suite run (three runs against
// the sandbox, with and without, in turn four times: 0.3 to 1.2 s less of 9.8 to 11.4 s). Node's own cache, per Node
// version, in the repository's node_modules/.cache; an environment that sets its own keeps it.
process.env.NODE_COMPILE_CACHE ??= path.join(import.meta.dirname, "node_modules", ".cache", "node-compile-cache");
enableCompileCache(process.env.NODE_COMPILE_CACHE);
// Pact's core (the verifier the tests run) reports usage unless told not to; every test process inherits this.
process.env.PACT_DO_NOT_TRACK ??= "true";

/**
 * The fast tier (`npm test`): every test of test/ that runs in this process, the contract suite's fault and variant
 * matrix against in-process sandboxes among them. The tests that start other processes, install packages or drive a
 * browser are the end-to-end tier's (vitest.e2e.config.ts, the list in test/support/test-tiers.ts).
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...E2E_TESTS],
    pool: "threads",
    // A worker keeps the modules it loaded from one file to the next: vitest and the kit's modules are loaded once per
    // worker, not once per file: the 50 files of test/client and test/suite/checks took 13 to 15 s of CPU so, against
    // 28 to 29 s isolated (docs/decisions.md, D39). What a test may change of its worker is
    // put back after each test, whatever its file does: the environment, globals, spies.
    isolate: false,
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    // Every test by name, so that `npm test` shows which sandbox fault each contract check caught.
    reporters: ["verbose"],
    maxWorkers: 2,
    // The longest files first, also on a fresh clone, where vitest knows no durations yet.
    sequence: { sequencer: SlowFirstSequencer },
    // Tests read the bundled spec (the sandbox, the fake): bundled first when it is missing or older than the spec.
    // No packs here: only the end-to-end tier installs the packages (its config adds the pack service).
    globalSetup: ["test/support/bundled-spec.ts"],
    // Type-level tests are checked by tsc in `npm run typecheck`; here they run as plain tests.
    typecheck: { enabled: false },
  },
});
