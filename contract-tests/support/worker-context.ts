import { inject } from "vitest";
import { createRunContext, type RunContext } from "./run-context.ts";
import { loadSuiteSpec } from "./spec.ts";

let context: RunContext | undefined;

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
