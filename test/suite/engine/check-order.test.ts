import { describe, expect, it } from "vitest";
import { scenarioChecks } from "../../../contract-tests/checks/catalogue.ts";
import { checkOrder, seededShuffle } from "../../../contract-tests/engine/check-order.ts";
import type { OperationId } from "../../../contract-tests/checks/types.ts";

const OPERATIONS: OperationId[] = ["getFile", "updateFile", "getFileDownloadUrl"];
const names = (order: { shuffle: boolean; seed: number }) =>
  checkOrder(scenarioChecks, OPERATIONS, order).map((p) => `${p.operationId} ${p.check.name}`);

describe("checkOrder", () => {
  it("runs each operation's checks in catalogue order, operation by operation, each check on each of its operations once", () => {
    const planned = names({ shuffle: false, seed: 1 });
    const expected = OPERATIONS.flatMap((op) =>
      scenarioChecks.filter((c) => c.operations.includes(op)).map((c) => `${op} ${c.name}`),
    );
    expect(planned).toEqual(expected);
  });

  it("draws the order from the seed with shuffle: the same seed the same order, another seed another, the same checks", () => {
    const plain = names({ shuffle: false, seed: 7 });
    const drawn = names({ shuffle: true, seed: 7 });
    expect(names({ shuffle: true, seed: 7 })).toEqual(drawn);
    expect(drawn).not.toEqual(plain);
    expect(names({ shuffle: true, seed: 1234 })).not.toEqual(drawn);
    expect([...drawn].sort()).toEqual([...plain].sort());
  });

  it("keeps a check that must come last at the end of its operation, in any order", () => {
    for (const seed of [1, 7, 1234, 99_991]) {
      const updates = names({ shuffle: true, seed }).filter((n) => n.startsWith("updateFile "));
      expect(updates.at(-1)).toBe("updateFile file_left_as_found");
    }
  });
});

describe("seededShuffle", () => {
  it("is vitest's shuffle: the orders its `sequence.seed` drew before the engine ran the suite", () => {
    // Drawn with @vitest/utils' shuffle (vitest 4.1), which ordered the suite's files and checks until the engine did.
    expect(seededShuffle([1, 2, 3, 4, 5, 6], 7)).toEqual(VITEST_SHUFFLED_7);
  });
});

const VITEST_SHUFFLED_7 = [2, 4, 5, 1, 3, 6];
