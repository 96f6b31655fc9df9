import { parseBaseUrl } from "../../src/base-url.ts";

/** What the suite checks: the embedded Prism mock, or a live server given by base URL. */
export interface Target {
  mode: "mock" | "live";
  baseUrl: string;
  apiKey: string;
  /** The id of a file that exists on the target. */
  fileId: string;
  /** Whether checks that change the file (and put it back) may run. */
  writeChecks: boolean;
}

/** A setting is missing or unusable: the run cannot start. */
export class TargetError extends Error {
  override name = "TargetError";
}

/** The key sent to the mock; Prism checks only that a bearer token is present. */
export const MOCK_API_KEY = "contract-suite-mock-key";

const isTrue = (value: string | undefined) => value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());

/** Reads the live target from the environment, or undefined when no base URL is set (mock mode). */
export function liveTargetFromEnv(env: NodeJS.ProcessEnv = process.env): Target | undefined {
  const baseUrl = env.FILE_LIBRARY_BASE_URL?.trim();
  if (!baseUrl) return undefined;
  const parsed = parseBaseUrl(baseUrl);
  if (!parsed.ok) throw new TargetError(`FILE_LIBRARY_BASE_URL ${parsed.problem}`);
  const apiKey = env.FILE_LIBRARY_API_KEY;
  if (!apiKey?.trim()) {
    throw new TargetError("FILE_LIBRARY_API_KEY is not set: a live run needs the API key of the target, in the environment.");
  }
  const fileId = env.FILE_LIBRARY_FILE_ID;
  if (!fileId?.trim()) {
    throw new TargetError("FILE_LIBRARY_FILE_ID is not set: a live run needs the id of a file that exists on the target.");
  }
  return {
    mode: "live",
    baseUrl: parsed.url,
    apiKey,
    fileId,
    writeChecks: isTrue(env.FILE_LIBRARY_WRITE_CHECKS),
  };
}
