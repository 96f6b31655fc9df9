import type { Target } from "../http/target.ts";
import type { SuiteSettings } from "../run/settings.ts";

/**
 * What a run is about to check, in one line, before its first request: the target, and how many checks will run on
 * which operations (those the settings select and the target allows: the mock keeps no state, a read-only run
 * writes nothing).
 */
export async function describePlan(
  settings: SuiteSettings,
  live: Pick<Target, "baseUrl" | "writeChecks"> | undefined,
): Promise<string> {
  // The catalogue brings every check and fast-check: loaded here, once the run is sure to start.
  const [{ responseChecks, scenarioChecks }, { selectedChecks }, { requirementsOn }] = await Promise.all([
    import("../checks/catalogue.ts"),
    import("../run/check-selection.ts"),
    import("../checks/types.ts"),
  ]);
  const selected = selectedChecks(settings);
  const writes = live ? live.writeChecks : true;
  const runs = (needs: readonly string[]) =>
    !(needs.includes("state") && !live) && !(needs.includes("writes") && !writes);
  const scenarios = scenarioChecks
    .filter((c) => selected.has(c.name))
    .reduce((n, c) => n + c.operations.filter((operation) => runs(requirementsOn(c, operation))).length, 0);
  const operations = new Set(scenarioChecks.flatMap((c) => c.operations)).size;
  const answers = responseChecks.filter((c) => selected.has(c.name)).length * operations;
  const target = live
    ? `the live server ${live.baseUrl} (${live.writeChecks ? "write checks on" : "read-only"})`
    : "the embedded Prism mock";
  return `── contract suite against ${target}: ${scenarios + answers} checks, ${scenarios} sending requests of their own and ${answers} judging every answer`;
}
