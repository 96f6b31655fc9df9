import { defineConfig } from "vitest/config";
import { SlowFirstSequencer } from "./test/support/slow-first-sequencer.ts";

/** Unit tests of the client and the kit's scripts (test/). The contract suite has its own config. */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "threads",
    // Every test by name, so that `npm test` shows which sandbox fault each contract check caught.
    reporters: ["verbose"],
    maxWorkers: 2,
    // The longest files first, also on a fresh clone, where vitest knows no durations yet.
    sequence: { sequencer: SlowFirstSequencer },
    // Tests read the bundled spec (the sandbox, the fake): bundled first when it is missing or older than the spec.
    globalSetup: ["test/support/bundled-spec.ts", "test/support/pack-service.ts"],
    // Type-level tests are checked by tsc in `npm run typecheck`; here they run as plain tests.
    typecheck: { enabled: false },
  },
});
