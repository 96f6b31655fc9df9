/**
 * `file-library-sandbox/testing`: the sandbox as a library, with the faults and legitimate variants that the kit's
 * contract suite is proven on, for tests of contract checkers (the kit's own, and other teams'). The CLI ships none
 * of them (docs/decisions.md, D42).
 */
export { startSandbox, type RunningSandbox, type SandboxConfig } from "../start.ts";
export { faults, legitimateVariants, type FaultName, type VariantName, type Variation } from "./faults.ts";
export { variation, type VariationNames, type VariationSettings } from "./variation.ts";
export type { Wrapper, WrapperContext } from "../fault-layer.ts";
export type { KeepAlivePolicy } from "../keep-alive.ts";
export type { PlainAnswer, PlainRequest, Service } from "../core/plain.ts";
