import { catalogue } from "../checks/catalogue.ts";
import { requirementsOn, type Check, type Requirement, type ScenarioCheck } from "../checks/types.ts";
import { SettingError, type SuiteSettings } from "./settings.ts";

/** The names the settings select (FILE_LIBRARY_CHECKS, less FILE_LIBRARY_EXCLUDE_CHECKS); throws SettingError on an unknown name. */
export function selectedChecks(settings: Pick<SuiteSettings, "checks" | "excludeChecks">): Set<string> {
  const names = new Set<string>(catalogue.map((c) => c.name));
  for (const [variable, list] of [
    ["FILE_LIBRARY_CHECKS", settings.checks],
    ["FILE_LIBRARY_EXCLUDE_CHECKS", settings.excludeChecks],
  ] as const) {
    const unknown = list.filter((n) => !names.has(n));
    if (unknown.length > 0)
      throw new SettingError(variable, `names unknown check(s) ${unknown.join(", ")}; see --list-checks`);
  }
  const chosen = settings.checks.length > 0 ? new Set(settings.checks) : names;
  for (const name of settings.excludeChecks) chosen.delete(name);
  return chosen;
}

/** What a run offers its checks: a server that keeps state (not the mock), and writes (FILE_LIBRARY_WRITE_CHECKS=1). */
export interface RunAllows {
  state: boolean;
  writes: boolean;
}

// What to set for a requirement the run does not meet, in the words of the one line a run that cannot start prints.
const REMEDY: Record<Requirement, string> = {
  writes: "write checks: FILE_LIBRARY_WRITE_CHECKS=1",
  state: "a server that keeps state: --base-url (the mock forgets every update)",
};

/**
 * Throws SettingError when the checks named by FILE_LIBRARY_CHECKS cannot all run as the run is set up: a named check
 * that runs on none of its operations (update_persisted in a read-only run), or a selection that sends no request
 * of its own (response checks alone judge nothing). The default selection's skips by design stay skips.
 */
export function assertSelectionRuns(
  settings: Pick<SuiteSettings, "checks" | "excludeChecks">,
  allows: RunAllows,
): void {
  if (settings.checks.length === 0 && settings.excludeChecks.length === 0) return;
  const selected = selectedChecks(settings);
  const named = (catalogue as readonly Check[]).filter((c) => selected.has(c.name));
  const scenarios = named.filter((c): c is ScenarioCheck => c.kind === "scenario");
  if (settings.checks.length === 0) return assertSomeCheckRuns(scenarios, allows);
  for (const check of scenarios) {
    const missing = missingOn(check, allows);
    if (missing.every((needs) => needs.length > 0)) {
      throw new SettingError(
        "FILE_LIBRARY_CHECKS",
        `selects a check that cannot run as set up: ${check.name} needs ${REMEDY[missing[0]![0]!]}`,
      );
    }
  }
  if (scenarios.length === 0) {
    const names = named.map((c) => c.name).join(", ") || "no check";
    throw new SettingError(
      "FILE_LIBRARY_CHECKS",
      `selects ${names}, which only judge${named.length === 1 ? "s" : ""} the answers to other checks' requests: add a check that sends requests (see --list-checks)`,
    );
  }
}

/** For each operation of the check, what it needs that the run does not offer (empty: it runs there). */
const missingOn = (check: ScenarioCheck, allows: RunAllows): Requirement[][] =>
  check.operations.map((operation) => requirementsOn(check, operation).filter((need) => !allows[need]));

/**
 * Throws SettingError when FILE_LIBRARY_EXCLUDE_CHECKS leaves no check that sends a request as the run is set up:
 * such a run would check nothing and pass (docs/decisions.md, D21).
 */
function assertSomeCheckRuns(scenarios: ScenarioCheck[], allows: RunAllows): void {
  if (scenarios.some((check) => missingOn(check, allows).some((needs) => needs.length === 0))) return;
  const left = scenarios.map((c) => c.name).join(", ");
  throw new SettingError(
    "FILE_LIBRARY_EXCLUDE_CHECKS",
    `leaves no check that sends requests as this run is set up${left ? ` (${left} cannot run here)` : ""}: exclude fewer checks`,
  );
}
