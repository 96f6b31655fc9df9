/**
 * The kit's boundaries, checked by `npm run lint:boundaries` (part of `npm test`). Type-only imports count too.
 * @type {import("dependency-cruiser").IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: "client-stands-alone",
      comment:
        "src/ is the published client, for Node and browsers: it imports only src/ and openapi-fetch (no Node built-in, no other package).",
      severity: "error",
      from: { path: "^src/" },
      to: { pathNot: ["^src/", "^node_modules/openapi-fetch/"] },
    },
    {
      name: "sandbox-is-a-server-of-its-own",
      comment:
        "The sandbox must not depend on what examines it (contract-tests/), on the client (src/, but for the spec's generated types), or on the repo's tools.",
      severity: "error",
      from: { path: "^sandbox/" },
      to: { path: ["^contract-tests/", "^src/", "^scripts/", "^bench/", "^test/"], pathNot: "^src/generated/" },
    },
    {
      name: "core-runs-anywhere",
      comment:
        "sandbox/core/ is the service for every transport and runtime (node:http, fetch, MSW; Node, browsers, Deno, workerd): no Node built-in.",
      severity: "error",
      from: { path: "^sandbox/core/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "core-knows-no-adapter",
      comment:
        "sandbox/core/ knows nothing of its adapters, its SQLite storage or its faults: they wrap it, it never reaches out to them.",
      severity: "error",
      from: { path: "^sandbox/core/" },
      to: { path: ["^sandbox/(?!core/)", "(^|/)node_modules/better-sqlite3/"] },
    },
    {
      name: "sandbox-ships-no-faults",
      comment:
        "The faults and variants (sandbox/testing/, the entry file-library-sandbox/testing) wrap the sandbox for tests of contract checkers: they may import the rest of the sandbox, but the core, the adapters and the CLI never import them, so the bin ships none.",
      severity: "error",
      from: { path: "^sandbox/", pathNot: "^sandbox/testing/" },
      to: { path: "^sandbox/testing/" },
    },
    {
      name: "suite-ships-alone",
      comment:
        "The contract suite is a package of its own: it must not reach into the sandbox it is proven on, nor into the repo's tools.",
      severity: "error",
      from: { path: "^contract-tests/" },
      to: { path: ["^sandbox/", "^scripts/", "^bench/", "^test/"] },
    },
    {
      name: "suite-runner-on-top",
      comment:
        "contract-tests/runner/ holds the commands; the engine (engine/), one run (run/), the proxy (proxy/) and the recordings (recording/) never reach back up into them.",
      severity: "error",
      from: { path: "^contract-tests/(engine|run|proxy|recording|pact|checks|report|http|inputs)/" },
      to: { path: "^contract-tests/runner/" },
    },
    {
      name: "suite-engine-above-the-run",
      comment:
        "contract-tests/engine/ runs the checks of one run (run/) in order and writes its reports; what it drives (run/ and everything below) never reaches up into it.",
      severity: "error",
      from: { path: "^contract-tests/(run|proxy|recording|pact|checks|report|http|inputs)/" },
      to: { path: "^contract-tests/engine/" },
    },
    {
      name: "suite-pacts-beside-the-recordings",
      comment:
        "Pact files (pact/) are made from recordings and judged by the checks, as recordings are: they use checks/, http/, recording/ and report/, never a run (run/); nothing below them (the recordings, the proxy, the checks) reaches into them.",
      severity: "error",
      from: { path: "^contract-tests/pact/" },
      to: { path: "^contract-tests/run/" },
    },
    {
      name: "suite-pacts-on-top-of-the-recordings",
      comment: "The recordings, the proxy and one run know nothing of Pact files: pact/ reads them, never the reverse.",
      severity: "error",
      from: { path: "^contract-tests/(run|proxy|recording)/" },
      to: { path: "^contract-tests/pact/" },
    },
    {
      name: "suite-checks-below-the-run",
      comment:
        "A check is a function of exchanges (checks/): it knows requests (http/) and inputs (inputs/), never the run that drives it, the proxy or the reports.",
      severity: "error",
      from: { path: "^contract-tests/checks/" },
      to: { path: "^contract-tests/(run|proxy|recording|pact|report)/" },
    },
    {
      name: "suite-reports-below-the-checks",
      comment:
        "Reports (report/) turn a run's records into text: they use the requests' words (http/), never the checks, the run or the proxy.",
      severity: "error",
      from: { path: "^contract-tests/report/" },
      to: { path: "^contract-tests/(checks|run|proxy|recording|pact|inputs)/" },
    },
    {
      name: "suite-requests-at-the-bottom",
      comment:
        "Requests going out (http/) and the values they carry (inputs/) are the suite's lowest layers: they know nothing above them; inputs/ not even the requests.",
      severity: "error",
      from: { path: "^contract-tests/(http|inputs)/" },
      to: {
        path: [
          "^contract-tests/(checks|run|proxy|recording|pact|report)/",
          "^contract-tests/(run-suite|index|cli|locations)\\.ts$",
        ],
      },
    },
    {
      name: "suite-inputs-know-no-requests",
      comment:
        "inputs/ (near-miss keys, ids, generated values) are plain values: the requests use them, never the reverse.",
      severity: "error",
      from: { path: "^contract-tests/inputs/" },
      to: { path: "^contract-tests/http/" },
    },
    {
      name: "lib-is-neutral",
      comment:
        "lib/ is what the suite and the sandbox share: it depends on neither of them, nor on the client or the tools (the spec's generated types aside).",
      severity: "error",
      from: { path: "^lib/" },
      to: {
        path: ["^src/", "^sandbox/", "^contract-tests/", "^scripts/", "^bench/", "^test/"],
        pathNot: "^src/generated/",
      },
    },
    {
      name: "tests-stay-in-test",
      comment: "Only tests import test/: what ships or runs must not depend on test helpers.",
      severity: "error",
      from: { pathNot: "^test/" },
      to: { path: "^test/" },
    },
    {
      name: "no-circular",
      comment:
        "No module depends on itself through others: a circle makes load order matter and hides which module owns what.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "resolvable",
      comment: "An import that resolves to nothing is a broken import, whatever tsc says about it.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // test/runtimes/ imports the client by its package name, which tsconfig.json's paths resolve to src/.
    exclude: { path: ["(^|/)dist/", "(^|/)node_modules/"] },
    // Type-only imports are dependencies too: a type from the suite in the sandbox couples them all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // Resolve packages through their exports map, as Node does: some (orval) have no "main" at all.
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
