import type { Target } from "../http/target.ts";
import { SettingError, type SuiteSettings } from "./settings.ts";

/** The live target the settings name, or undefined when they name no base URL (mock mode); throws SettingError when one is incomplete. */
export function liveTarget(
  settings: Pick<SuiteSettings, "baseUrl" | "apiKey" | "fileId" | "writeChecks">,
): Target | undefined {
  const { baseUrl, apiKey, fileId } = settings;
  if (baseUrl === undefined) return undefined;
  if (apiKey === undefined)
    throw new SettingError(
      "FILE_LIBRARY_API_KEY",
      "is not set: a live run needs the API key of the target, in the environment.",
    );
  if (fileId === undefined)
    throw new SettingError(
      "FILE_LIBRARY_FILE_ID",
      "is not set: a live run needs the id of a file that exists on the target.",
    );
  return { mode: "live", baseUrl, apiKey, fileId, writeChecks: settings.writeChecks };
}
