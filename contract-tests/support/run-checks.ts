import fc from "fast-check";
import { describe, inject, it, type TestContext } from "vitest";
import { responseChecks, scenarioChecks, selectedChecks } from "../checks/catalogue.ts";
import type { OperationId, Scenario, ScenarioCheck } from "../checks/types.ts";
import { evidenceOf, recordExchange, recordFailure, recordWarning } from "./evidence.ts";
import { exchange, RequestBudgetError, type Exchange } from "./exchange.ts";
import { spec } from "./spec.ts";

const target = inject("target");
const seed = inject("seed");
const selected = selectedChecks();
const fuzzRuns = Math.max(1, Number(process.env.FILE_LIBRARY_FUZZ_RUNS) || 5);

/** Ends a scenario as failed; carries the exchange that showed it. */
class ScenarioFailure extends Error {
  constructor(
    readonly problem: string,
    readonly exchange?: Exchange,
  ) {
    super(problem);
  }
}

/** Ends a scenario as skipped. */
class ScenarioSkip extends Error {}

/** Registers one test per scenario check of the operation; every answer also goes through the response checks. */
export function describeOperation(operationId: OperationId): void {
  const { method, path } = spec.operation(operationId);
  describe(`${operationId}: ${method} ${path}`, () => {
    for (const check of scenarioChecks.filter((c) => c.operations.includes(operationId))) {
      it(`${check.name}: ${check.description}`, (context) => runScenario(check, operationId, context));
    }
  });
}

async function runScenario(check: ScenarioCheck, operationId: OperationId, context: TestContext): Promise<void> {
  context.task.meta.scenario = { check: check.name, operation: operationId };
  if (!selected.has(check.name)) return context.skip("not selected (--checks / --exclude-checks)");
  if (check.requires?.includes("state") && target.mode === "mock") {
    return context.skip("skipped against the mock: it keeps no state, so it cannot show this");
  }
  if (check.requires?.includes("writes") && !target.writeChecks) {
    return context.skip("read-only run: set FILE_LIBRARY_WRITE_CHECKS=1 to check updates of the file");
  }

  const scenario: Scenario = {
    operationId,
    target,
    spec,
    async send(request) {
      const ex = await exchange(target, spec, { operationId, ...request });
      recordExchange(ex);
      inspect(ex);
      return ex;
    },
    fail(problem, ex) {
      throw new ScenarioFailure(problem, ex);
    },
    warn: (message) => warn(check.name, operationId, message),
    skip(reason) {
      throw new ScenarioSkip(reason);
    },
    async forAll(arbitrary, property) {
      const details = await fc.check(
        fc.asyncProperty(arbitrary, async (value) => {
          try {
            await property(value);
          } catch (error) {
            // A spent budget is not a counterexample: stop exploring, keep what was found.
            if (error instanceof RequestBudgetError) return;
            throw error;
          }
        }),
        { seed, numRuns: fuzzRuns },
      );
      if (!details.failed) return;
      const cause = details.errorInstance;
      const shrunk = fc.stringify(details.counterexample?.[0]);
      const problem = cause instanceof ScenarioFailure ? cause.problem : String(cause);
      throw new ScenarioFailure(
        `${problem} (input after shrinking: ${shrunk}; seed ${seed}, replay with --seed ${seed})`,
        cause instanceof ScenarioFailure ? cause.exchange : undefined,
      );
    },
  };

  try {
    await check.run(scenario);
  } catch (error) {
    if (error instanceof ScenarioSkip) return context.skip(error.message);
    if (error instanceof RequestBudgetError) return context.skip(error.message);
    if (!(error instanceof ScenarioFailure)) throw error;
    recordFailure({
      check: check.name,
      operation: operationId,
      problem: error.problem,
      evidence: error.exchange && evidenceOf(error.exchange),
    });
  }
  const failures = context.task.meta.failures ?? [];
  if (failures.length > 0) {
    const lines = failures.map((f) => `- ${f.check}: ${f.problem}${f.evidence ? `\n    reproduce: ${f.evidence.curl}` : ""}`);
    throw new Error(`${failures.length} check(s) failed:\n${lines.join("\n")}`);
  }
}

/** Applies every selected response check to an answer, recording failures and warnings. */
function inspect(ex: Exchange): void {
  for (const check of responseChecks) {
    if (!selected.has(check.name)) continue;
    const { failures, warnings } = check.inspect(ex, spec);
    for (const problem of failures) recordFailure({ check: check.name, operation: ex.operationId, problem, evidence: evidenceOf(ex) });
    for (const message of warnings) warn(check.name, ex.operationId, message);
  }
}

function warn(check: string, operation: string, message: string): void {
  recordWarning(`${operation} ${check}: ${message}`);
  console.warn(`WARNING ${operation} ${check}: ${message}`);
}
