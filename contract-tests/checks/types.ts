import type * as fc from "fast-check";
import type { Exchange, ExchangeRequest } from "../support/exchange.ts";
import type { OpenApiValidator } from "../support/openapi-validator.ts";
import type { Target } from "../support/target.ts";

/** The operations of the spec. */
export type OperationId = "getFile" | "updateFile" | "getFileDownloadUrl";

/** What a response check found in one exchange. */
export interface ResponseFindings {
  failures: string[];
  warnings: string[];
}

/** A check applied to every answer the suite gets (Schemathesis' response checks). */
export interface ResponseCheck<Name extends string = string> {
  kind: "response";
  name: Name;
  /** What it verifies, in one line. */
  description: string;
  inspect(ex: Exchange, spec: OpenApiValidator): ResponseFindings;
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
  run(scenario: Scenario): Promise<void>;
}

/** Any check of the catalogue. */
export type Check = ResponseCheck | ScenarioCheck;

/** Declares a response check, keeping its name as a literal type (the catalogue's names are a union). */
export const responseCheck = <const Name extends string>(check: ResponseCheck<Name>): ResponseCheck<Name> => check;

/** Declares a scenario check, keeping its name as a literal type. */
export const scenarioCheck = <const Name extends string>(check: ScenarioCheck<Name>): ScenarioCheck<Name> => check;

/** What a scenario check works with. */
export interface Scenario {
  operationId: OperationId;
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
  /** Runs a property over generated inputs (seeded, shrunk on failure); `FILE_LIBRARY_FUZZ_RUNS` inputs. */
  forAll<T>(arbitrary: fc.Arbitrary<T>, property: (value: T) => Promise<void>): Promise<void>;
}
