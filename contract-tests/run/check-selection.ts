import { catalogue } from "../checks/catalogue.ts";
import { SettingError, type SuiteSettings } from "./settings.ts";

/** The names the settings select (FILE_LIBRARY_CHECKS, less FILE_LIBRARY_EXCLUDE_CHECKS); throws SettingError on an unknown name. */
export function selectedChecks(settings: Pick<SuiteSettings, "checks" | "excludeChecks">): Set<string> {
  const names = new Set<string>(catalogue.map((c) => c.name));
  for (const [variable, list] of [["FILE_LIBRARY_CHECKS", settings.checks], ["FILE_LIBRARY_EXCLUDE_CHECKS", settings.excludeChecks]] as const) {
    const unknown = list.filter((n) => !names.has(n));
    if (unknown.length > 0) throw new SettingError(variable, `names unknown check(s) ${unknown.join(", ")}; see --list-checks`);
  }
  const chosen = settings.checks.length > 0 ? new Set(settings.checks) : names;
  for (const name of settings.excludeChecks) chosen.delete(name);
  return chosen;
}
