import { createHash, timingSafeEqual } from "node:crypto";

/** What an Authorization header amounts to. */
export type KeyCheck = "ok" | "missing" | "wrong";

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * Checks `Authorization: Bearer <key>` against the sandbox's key in constant time. `compared: "first-half"` is a
 * fault (tests only): it compares only the first half of the key, as a server that checks a key id and not its secret.
 */
export function createKeyCheck(apiKey: string, compared: "whole" | "first-half" = "whole"): (authorization: string | undefined) => KeyCheck {
  const part = (key: string) => (compared === "whole" ? key : key.slice(0, Math.ceil(apiKey.length / 2)));
  // Comparing fixed-length digests keeps the time independent of where, and whether, the keys differ in length.
  const expected = digest(part(apiKey));
  return (authorization) => {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) return "missing";
    return timingSafeEqual(digest(part(match[1]!)), expected) ? "ok" : "wrong";
  };
}
