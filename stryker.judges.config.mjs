import base from "./stryker.config.mjs";

/**
 * `npm run test:mutation`, its second half: StrykerJS mutates the suite's judges (contract-tests/checks/ and the proxy's
 * traffic rules) and runs their in-process unit tests (vitest.mutation-judges.config.ts) against each mutant, with the
 * settings of stryker.config.mjs. Fails under 90%. Reports in reports/mutation-judges/.
 * @type {import("@stryker-mutator/api/core").PartialStrykerOptions}
 */
export default {
  ...base,
  vitest: { configFile: "vitest.mutation-judges.config.ts", related: false },
  mutate: [
    "contract-tests/checks/**/*.ts",
    "contract-tests/proxy/traffic-rules.ts",
    "contract-tests/proxy/fingerprint.ts",
    // What the checks judge with or send: an echoed key, the ids near the real one, the URL forms.
    "contract-tests/http/secret-echo.ts",
    "contract-tests/inputs/near-ids.ts",
    "contract-tests/inputs/url-forms.ts",
  ],
  htmlReporter: { fileName: "reports/mutation-judges/index.html" },
  jsonReporter: { fileName: "reports/mutation-judges/mutation.json" },
  // Its own sandbox folder: the two runs may not share one.
  tempDirName: "node_modules/.cache/stryker-tmp-judges",
};
