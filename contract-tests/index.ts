/** The File Library contract suite as a library: run it from a program and read its reports. The CLI is `file-library-contract`. */
export { runSuite, type AbortSignalLike, type SuiteOptions, type SuiteRun } from "./run-suite.ts";
export type { CheckFailureRecord, CheckOutcome, ContractSummary, Coverage, ExchangeEvidence } from "./report/shapes.ts";
export { startProxy, type ProxyOptions, type ProxyRun, type RunningProxy } from "./proxy/start-proxy.ts";
export type {
  CountedFinding,
  CountedWarning,
  ProxyFinding,
  ProxySummary,
  RefusedRequests,
  Side,
} from "./proxy/proxy-summary.ts";
