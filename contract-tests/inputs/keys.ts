import { redactSecrets } from "../../lib/redact-secrets.ts";

/** A key no server issues, for the wrong-key checks; not a secret, so reports show it. */
export const WRONG_API_KEY = "file-library-contract-wrong-key";
const SUFFIX = "x";

const changeLast = (key: string) => `${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`;
const truncated = (key: string) => key.slice(0, -1);
const firstHalf = (key: string) => key.slice(0, Math.ceil(key.length / 2));
const swapCase = (key: string) =>
  key.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

/**
 * Each Authorization header a request may send: what it is in words (for check messages), the header's value made
 * from the key, and how a curl command makes the same from $FILE_LIBRARY_API_KEY (quoted for a POSIX shell, so that
 * the command holds no part of the key). The near misses are what a reviewer of auth code tries: a server that
 * compares part of the key, ignores its case, trims it or accepts any scheme lets them through.
 */
const MODES = {
  valid: {
    words: "with the key",
    header: (k: string) => `Bearer ${k}`,
    curl: '"Authorization: Bearer $FILE_LIBRARY_API_KEY"',
  },
  none: { words: "without Authorization", header: () => undefined, curl: undefined },
  wrong: {
    words: "with a wrong key",
    header: () => `Bearer ${WRONG_API_KEY}`,
    curl: `"Authorization: Bearer ${WRONG_API_KEY}"`,
  },
  "near-miss-last": {
    words: "with the key's last character changed",
    header: (k: string) => `Bearer ${changeLast(k)}`,
    curl: '"Authorization: Bearer $(k=$FILE_LIBRARY_API_KEY; case $k in *x) printf %sy "${k%?}";; *) printf %sx "${k%?}";; esac)"',
  },
  // A server that compares only as many characters as it was sent accepts any prefix of the key.
  "near-miss-truncated": {
    words: "with the key's last character removed",
    header: (k: string) => `Bearer ${truncated(k)}`,
    curl: '"Authorization: Bearer ${FILE_LIBRARY_API_KEY%?}"',
  },
  "near-miss-half": {
    words: "with the first half of the key",
    header: (k: string) => `Bearer ${firstHalf(k)}`,
    curl: '"Authorization: Bearer $(k=$FILE_LIBRARY_API_KEY; printf %s "$k" | cut -c1-$(( (${#k} + 1) / 2 )))"',
  },
  "near-miss-suffix": {
    words: "with the key and a suffix",
    header: (k: string) => `Bearer ${k}${SUFFIX}`,
    curl: `"Authorization: Bearer \${FILE_LIBRARY_API_KEY}${SUFFIX}"`,
  },
  "empty-token": { words: "with an empty bearer token", header: () => "Bearer ", curl: '"Authorization: Bearer "' },
  "case-changed": {
    words: "with the key's letters in the other case",
    header: (k: string) => `Bearer ${swapCase(k)}`,
    curl: `"Authorization: Bearer $(printf %s "$FILE_LIBRARY_API_KEY" | tr a-zA-Z A-Za-z)"`,
  },
  "tab-before-key": {
    words: "with a tab between Bearer and the key (the syntax allows spaces only)",
    header: (k: string) => `Bearer \t${k}`,
    curl: `"Authorization: Bearer $(printf '\\t')$FILE_LIBRARY_API_KEY"`,
  },
  "other-scheme": {
    words: "with the key under another scheme (Token)",
    header: (k: string) => `Token ${k}`,
    curl: '"Authorization: Token $FILE_LIBRARY_API_KEY"',
  },
  "key-alone": {
    words: "with the key and no scheme",
    header: (k: string) => k,
    curl: '"Authorization: $FILE_LIBRARY_API_KEY"',
  },
  "key-twice": {
    words: "with the key twice",
    header: (k: string) => `Bearer ${k} ${k}`,
    curl: '"Authorization: Bearer $FILE_LIBRARY_API_KEY $FILE_LIBRARY_API_KEY"',
  },
} satisfies Record<string, { words: string; header: (key: string) => string | undefined; curl: string | undefined }>;

/** Which Authorization header a request sends: the key, none, a key no server issues, or a near miss of the key. */
export type AuthMode = keyof typeof MODES;

/** Every mode but the valid key: what must get 401. */
export const NEAR_MISSES = [
  "near-miss-last",
  "near-miss-truncated",
  "near-miss-half",
  "near-miss-suffix",
  "empty-token",
  "case-changed",
  "tab-before-key",
  "other-scheme",
  "key-alone",
  "key-twice",
] as const satisfies readonly AuthMode[];

/** What a request without the valid key sends, in words, for check messages. */
export const authWords = (mode: AuthMode): string => MODES[mode].words;

/** The Authorization header a mode sends, or undefined for none. */
export const authorizationFor = (mode: AuthMode, apiKey: string): string | undefined => MODES[mode].header(apiKey);

/** Every secret a run must never show, the near misses included; longest first, so that none is left half-redacted. */
export function secretsOf(apiKey: string): string[] {
  return [
    ...new Set([
      `${apiKey}${SUFFIX}`,
      apiKey,
      changeLast(apiKey),
      swapCase(apiKey),
      truncated(apiKey),
      firstHalf(apiKey),
    ]),
  ]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length);
}

/** The Authorization header as reports show it: the key and every near miss of it are `[REDACTED]`. */
export function shownAuthorization(mode: AuthMode, apiKey: string): string | undefined {
  const header = authorizationFor(mode, apiKey);
  return header === undefined || mode === "wrong" ? header : redactSecrets(header, secretsOf(apiKey));
}

/** The credential a mode sends, without its scheme: the key, or the near miss in its place; undefined when it sends none of them. */
export function sentCredential(mode: AuthMode, apiKey: string): string | undefined {
  if (mode === "wrong") return undefined;
  return authorizationFor(mode, apiKey)?.replace(/^(Bearer|Token)\s+/, "") || undefined;
}

/** The Authorization header as a curl command sends it, already quoted for a POSIX shell; undefined for none. */
export const curlAuthorization = (mode: AuthMode): string | undefined => MODES[mode].curl;
