import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  authorizationFor,
  curlAuthorization,
  NEAR_MISSES,
  secretsOf,
  shownAuthorization,
  type AuthMode,
} from "../../contract-tests/inputs/keys.ts";

const KEY = "sk-live-0123456789abcdefX";
const MODES: AuthMode[] = ["valid", "none", "wrong", ...NEAR_MISSES];

describe("keys", () => {
  it("has the near misses a reviewer of auth code tries, the truncated and extended keys among them", () => {
    expect(authorizationFor("near-miss-truncated", KEY)).toBe(`Bearer ${KEY.slice(0, -1)}`);
    expect(authorizationFor("near-miss-half", KEY)).toBe(`Bearer ${KEY.slice(0, 13)}`);
    expect(authorizationFor("near-miss-suffix", KEY)).toBe(`Bearer ${KEY}x`);
    expect(new Set(NEAR_MISSES.map((mode) => authorizationFor(mode, KEY))).size).toBe(NEAR_MISSES.length);
  });

  // The curl command of a failure rebuilds its header from $FILE_LIBRARY_API_KEY in a POSIX shell, holding no part of the key.
  it.each(MODES.filter((mode) => curlAuthorization(mode) !== undefined))(
    "%s: the curl argument rebuilds the header from the environment",
    (mode) => {
      const argument = curlAuthorization(mode)!;
      for (const secret of secretsOf(KEY)) expect(argument).not.toContain(secret);
      const header = execFileSync("sh", ["-c", `printf %s ${argument}`], {
        env: { PATH: process.env.PATH, FILE_LIBRARY_API_KEY: KEY },
        encoding: "utf8",
      });
      expect(header).toBe(`Authorization: ${authorizationFor(mode, KEY)}`);
    },
  );

  it("redacts the key and every near miss of it, longest first, so that none shows in part", () => {
    for (const mode of MODES.filter((m) => m !== "wrong" && m !== "none" && m !== "empty-token")) {
      const shown = shownAuthorization(mode, KEY)!;
      expect(shown).toContain("[REDACTED]");
      expect(shown).not.toContain(KEY.slice(0, 13));
    }
    expect(shownAuthorization("wrong", KEY)).toBe("Bearer file-library-contract-wrong-key");
  });
});
