import { describe, expect, it } from "vitest";
import { requirementsOn, scenarioCheck, type ScenarioCheck } from "../../../contract-tests/checks/types.ts";

const check = (needs: Pick<ScenarioCheck, "requires" | "requiresOn">) =>
  scenarioCheck("a_check", "A check.", { operations: ["getFile", "updateFile"], ...needs, run: async () => {} });

describe("requirementsOn: what a scenario check needs on one operation", () => {
  it("is what it requires everywhere, then what it requires on that operation", () => {
    const both = check({ requires: ["state"], requiresOn: { updateFile: ["writes"] } });
    expect(requirementsOn(both, "updateFile")).toEqual(["state", "writes"]);
    expect(requirementsOn(both, "getFile")).toEqual(["state"]);
  });

  it("is nothing for a check that requires nothing, and only the operation's needs for one that requires nothing everywhere", () => {
    expect(requirementsOn(check({}), "updateFile")).toEqual([]);
    const onUpdate = check({ requiresOn: { updateFile: ["writes"] } });
    expect(requirementsOn(onUpdate, "updateFile")).toEqual(["writes"]);
    expect(requirementsOn(onUpdate, "getFile")).toEqual([]);
  });
});
