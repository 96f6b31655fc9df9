import type { OperationId, ScenarioCheck } from "../checks/types.ts";

/** One scenario check on one operation: a step of the run. */
export interface PlannedCheck {
  check: ScenarioCheck;
  operationId: OperationId;
}

/**
 * The order of a run's checks: operation by operation, each operation's checks in catalogue order. With `shuffle`,
 * the operations and each operation's checks are drawn from the seed, as vitest's `sequence.shuffle` drew them when
 * it ran the suite (the same seed, the same order); a check that must come last (file_left_as_found, after every
 * write) comes last in any order.
 */
export function checkOrder(
  scenarioChecks: readonly ScenarioCheck[],
  operations: readonly OperationId[],
  order: { shuffle: boolean; seed: number },
): PlannedCheck[] {
  const drawn = (list: readonly ScenarioCheck[] | readonly OperationId[]) =>
    order.shuffle ? seededShuffle([...list], order.seed) : [...list];
  return (drawn(operations) as OperationId[]).flatMap((operationId) => {
    const checks = scenarioChecks.filter((c) => c.operations.includes(operationId));
    const planned = [...(drawn(checks.filter((c) => !c.last)) as ScenarioCheck[]), ...checks.filter((c) => c.last)];
    return planned.map((check) => ({ check, operationId }));
  });
}

/** vitest's `shuffle` (@vitest/utils): a Fisher–Yates shuffle drawn from a sine of the seed, in place. */
export function seededShuffle<T>(array: T[], seed: number): T[] {
  const random = (at: number) => {
    const x = Math.sin(at) * 1e4;
    return x - Math.floor(x);
  };
  let length = array.length;
  while (length) {
    const index = Math.floor(random(seed) * length--);
    [array[length], array[index]] = [array[index]!, array[length]!];
    ++seed;
  }
  return array;
}
