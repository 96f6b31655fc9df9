import type * as fc from "fast-check";
import type { Exchange, ExchangeRequest } from "../http/exchange.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import type { RequestContext } from "../http/request-context.ts";
import type { Target } from "../http/target.ts";

import type { OperationId } from "../../src/errors.ts";

/** The operations of the spec, by operationId (generated from it). */
export type { OperationId };

/** What a response check found in one exchange. */
export interface ResponseFindings {
  failures: string[];
  warnings: string[];
}

/** The limits an answer is judged by, beyond the spec (the run's settings give them). */
export interface JudgingLimits {
  /** Answers slower than this warn (FILE_LIBRARY_MAX_RESPONSE_MS). */
  maxResponseMs: number;
}

/** Answers slower than this warn, unless FILE_LIBRARY_MAX_RESPONSE_MS says otherwise. */
export const DEFAULT_MAX_RESPONSE_MS = 5_000;

/** What a run judges by default: the limits a run has without settings. */
export const DEFAULT_LIMITS: JudgingLimits = { maxResponseMs: DEFAULT_MAX_RESPONSE_MS };

/**
 * A check applied to every answer the suite gets (Schemathesis' response checks): a pure function of the exchange,
 * the spec and the limits, so that any runner (the suite, a proxy) can call it.
 */
export interface ResponseCheck<Name extends string = string> {
  kind: "response";
  name: Name;
  /** What it verifies, in one line. */
  description: string;
  inspect(ex: Exchange, spec: OpenApiValidator, limits?: JudgingLimits): ResponseFindings;
}

/** What a scenario needs from the target before it can run. */
export type Requirement = "state" | "writes";

/** A check that sends requests of its own to one operation and judges the answers. */
export interface ScenarioCheck<Name extends string = string> {
  kind: "scenario";
  name: Name;
  description: string;
  operations: readonly OperationId[];
  /** "state": a server that remembers (not the mock); "writes": FILE_LIBRARY_WRITE_CHECKS=1. */
  requires?: readonly Requirement[];
  /** What it needs on one operation only, beside `requires` (positive_data_acceptance writes on the update alone). */
  requiresOn?: Partial<Record<OperationId, readonly Requirement[]>>;
  /** Runs after every other check of its operation, in any order (--shuffle): it judges what they left. */
  last?: boolean;
  run(scenario: Scenario): Promise<void>;
}

/** What a scenario check needs to run on an operation: its `requires`, and its `requiresOn` that operation. */
export const requirementsOn = (check: ScenarioCheck, operationId: OperationId): Requirement[] => [
  ...(check.requires ?? []),
  ...(check.requiresOn?.[operationId] ?? []),
];

/** Any check of the catalogue. */
export type Check = ResponseCheck | ScenarioCheck;

/** What a response check reports: failures, then warnings (none by default). */
export const findings = (failures: string[] = [], warnings: string[] = []): ResponseFindings => ({
  failures,
  warnings,
});

/** Declares a response check; its name stays a literal type, so that the catalogue's names form a union. */
export function responseCheck<const Name extends string>(
  name: Name,
  description: string,
  inspect: ResponseCheck["inspect"],
): ResponseCheck<Name> {
  return { kind: "response", name, description, inspect };
}

/**
 * Declares a response check of the answers whose status the spec documents; `inspect` gets the documented status
 * key ("422", "5XX"). Undocumented statuses are status_code_conformance's to report.
 */
export function documentedAnswerCheck<const Name extends string>(
  name: Name,
  description: string,
  inspect: (ex: Exchange, spec: OpenApiValidator, statusKey: string) => ResponseFindings,
): ResponseCheck<Name> {
  return responseCheck(name, description, (ex, spec) => {
    const statusKey = spec.documentedStatus(ex.operationId, ex.status);
    return statusKey ? inspect(ex, spec, statusKey) : findings();
  });
}

/** Declares a scenario check; its name stays a literal type. */
export function scenarioCheck<const Name extends string>(
  name: Name,
  description: string,
  definition: Omit<ScenarioCheck, "kind" | "name" | "description">,
): ScenarioCheck<Name> {
  return { kind: "scenario", name, description, ...definition };
}

/** What a scenario check works with. */
export interface Scenario {
  operationId: OperationId;
  /** The run: its settings, budget, rate limiter and connections (what followUrl sends with). */
  context: RequestContext;
  target: Target;
  spec: OpenApiValidator;
  /** Sends a request; every selected response check inspects the answer. */
  send(request: Omit<ExchangeRequest, "operationId"> & { operationId?: OperationId }): Promise<Exchange>;
  /** Ends the scenario as failed, with the exchange that showed it. */
  fail(problem: string, exchange?: Exchange): never;
  /** Records a warning; the check still passes. */
  warn(message: string): void;
  /** Ends the scenario as skipped, with the reason. */
  skip(reason: string): never;
  /** Counts an input of a kind that the check sent, for the summary ("not JSON", "labels of a wrong type"...). */
  record(kind: string): void;
  /** Runs a property over generated inputs (seeded, shrunk on failure); `FILE_LIBRARY_FUZZ_RUNS` inputs. */
  forAll<T>(arbitrary: fc.Arbitrary<T>, property: (value: T) => Promise<void>): Promise<void>;
  /** The file as the run found it before its first write; undefined when the run wrote nothing to it. */
  baseline(): Promise<{ metadata: Record<string, unknown> | undefined } | undefined> | undefined;
}
