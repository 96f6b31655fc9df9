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

/** The key sent to the mock; Prism checks only that a bearer token is present. */
export const MOCK_API_KEY = "contract-suite-mock-key";
