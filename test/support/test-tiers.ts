/**
 * The end-to-end tier (`npm run test:e2e`, vitest.e2e.config.ts): the test files that start other processes, install
 * packages, drive a browser, or need Java or other Node lines. Every other test file is in the fast tier (`npm test`,
 * vitest.config.ts), which runs in-process. test/repo/test-tiers.test.ts keeps the two honest: each file in exactly one
 * tier, no process started by a file of the fast tier, and none here that needs none.
 */
export const E2E_TESTS: readonly string[] = [
  // The packed packages and their installs, on this Node and on the other Node lines; the docs' samples run from them.
  "test/consumers/client-package.test.ts",
  "test/consumers/contract-package.test.ts",
  "test/consumers/contract-package-proxy.test.ts",
  "test/consumers/sandbox-package.test.ts",
  "test/consumers/node-lines.test.ts",
  "test/consumers/package-readmes.test.ts",
  "test/consumers/doc-samples-run.test.ts",
  // Other tools as processes: the generators' CLIs and their clients compiled and run, Specmatic on Java, Prism.
  "test/consumers/generator-hey-api.test.ts",
  "test/consumers/generator-kubb.test.ts",
  "test/consumers/generator-oazapfts.test.ts",
  "test/consumers/generator-openapi-zod-client.test.ts",
  "test/consumers/generator-orval.test.ts",
  "test/consumers/generator-swagger-typescript-api.test.ts",
  "test/consumers/specmatic.test.ts",
  "test/consumers/official-sdk.test.ts",
  "test/spec/mock-update.test.ts",
  "test/suite/mock-lifecycle.test.ts",
  "test/suite/prism-faker.test.ts",
  "test/suite/prism-lazy-postman.test.ts",
  // Browsers: the reference site, a HAR recorded in Chromium, and how the browser tests find their browser.
  "test/spec/docs-site.test.ts",
  "test/suite/replay-har-chromium.test.ts",
  "test/consumers/browser-lookup.test.ts",
  // The repository's commands as a user runs them: npm, the CLIs and scripts in processes of their own.
  "test/repo/readme-commands.test.ts",
  "test/repo/command-line.test.ts",
  "test/repo/contract-from-a-clone.test.ts",
  "test/repo/boundaries.test.ts",
  "test/spec/build-spec.test.ts",
  "test/spec/breaking-changes.test.ts",
  "test/sandbox/sandbox-process.test.ts",
  "test/suite/contract-runner.test.ts",
  "test/suite/contract-hostile.test.ts",
  "test/suite/contract-wait-cap.test.ts",
  "test/suite/run-start.test.ts",
  "test/suite/run-suite-host.test.ts",
  "test/suite/proxy.test.ts",
  "test/suite/proxy-memory.test.ts",
  "test/suite/pact-command.test.ts",
  "test/suite/recording/replay.test.ts",
  "test/client/client-memory.test.ts",
  // Processes as the subject: signals and exit codes, children's CPU, a shell, curl, a FIFO.
  "test/repo/process.test.ts",
  "test/repo/children-cpu.test.ts",
  "test/suite/keys.test.ts",
  "test/suite/curl-reproduce.test.ts",
  "test/suite/recording/recorder.test.ts",
];
