import { REDACTED } from "../../src/redact.ts";

/**
 * Which Authorization header a request sends: the key, none, a key no server issues, or a near miss of the key
 * (its last character changed, or a suffix added), which a server that checks only part of the key lets through.
 */
export type AuthMode = "valid" | "none" | "wrong" | "near-miss-last" | "near-miss-suffix";

/** A key no server issues, for the wrong-key checks; not a secret, so reports show it. */
export const WRONG_API_KEY = "file-library-contract-wrong-key";
const SUFFIX = "x";

/** What a request without the valid key sends, in words, for check messages. */
export const AUTH_WORDS: Record<Exclude<AuthMode, "valid">, string> = {
  none: "without Authorization",
  wrong: "with a wrong key",
  "near-miss-last": "with the key's last character changed",
  "near-miss-suffix": "with the key and a suffix",
};

const changeLast = (key: string) => `${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`;

/** The key a mode sends, or undefined for no Authorization header. */
export function keyFor(mode: AuthMode, apiKey: string): string | undefined {
  switch (mode) {
    case "valid":
      return apiKey;
    case "none":
      return undefined;
    case "wrong":
      return WRONG_API_KEY;
    case "near-miss-last":
      return changeLast(apiKey);
    case "near-miss-suffix":
      return `${apiKey}${SUFFIX}`;
  }
}

/** Every secret a run must never show, the near misses included; longest first, so that none is left half-redacted. */
export function secretsOf(apiKey: string): string[] {
  return [`${apiKey}${SUFFIX}`, apiKey, changeLast(apiKey)];
}

/** The Authorization header as reports show it: the key and its near misses are all `[REDACTED]`. */
export function shownAuthorization(mode: AuthMode, apiKey: string): string | undefined {
  const key = keyFor(mode, apiKey);
  return key === undefined ? undefined : `Bearer ${mode === "wrong" ? key : REDACTED}`;
}

/**
 * The Authorization header as a curl command sends it, already quoted for a POSIX shell: the key comes from
 * $FILE_LIBRARY_API_KEY, and a near miss is made from it by the shell, so that the command holds no part of the key.
 */
export function curlAuthorization(mode: Exclude<AuthMode, "none" | "wrong">): string {
  switch (mode) {
    case "valid":
      return '"Authorization: Bearer $FILE_LIBRARY_API_KEY"';
    case "near-miss-suffix":
      return `"Authorization: Bearer \${FILE_LIBRARY_API_KEY}${SUFFIX}"`;
    case "near-miss-last":
      return '"Authorization: Bearer $(k=$FILE_LIBRARY_API_KEY; case $k in *x) printf %sy "${k%?}";; *) printf %sx "${k%?}";; esac)"';
  }
}
