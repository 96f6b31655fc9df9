import { inject } from "vitest";
import { createRunContext, type RunContext } from "./run-context.ts";
import { loadSuiteSpec } from "./spec.ts";
import { receiveTarget } from "./target-channel.ts";

let context: RunContext | undefined;
let targetKnown: Promise<void> | undefined;

/**
 * The run's context in a worker of the suite, made once from what the global setup provided: the test files share
 * one worker and its modules (the config's `isolate: false`), so they share one budget, rate limiter and pool.
 */
export function runContext(): RunContext {
  if (!context) {
    const run = inject("run");
    context = createRunContext(run, loadSuiteSpec(run.settings.specFile));
  }
  return context;
}

/**
 * Resolves once the run's target can be reached: at once, or (the mock still starting when the worker did) when the
 * global setup passes on the mock's URL. The checks are collected before it, their requests sent after.
 */
export function targetReady(): Promise<void> {
  if (!targetKnown) {
    const run = runContext();
    targetKnown = inject("run").awaitsMock
      ? receiveTarget().then((mockUrl) => {
          // The worker's own copy of the target, still without requests: it gets its address once.
          run.target.baseUrl = mockUrl;
        })
      : Promise.resolve();
  }
  return targetKnown;
}
