import { createHash, timingSafeEqual } from "node:crypto";

/** What an Authorization header amounts to. */
export type KeyCheck = "ok" | "missing" | "wrong";

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Checks `Authorization: Bearer <key>` against the sandbox's key in constant time. */
export function createKeyCheck(apiKey: string): (authorization: string | undefined) => KeyCheck {
  // Comparing fixed-length digests keeps the time independent of where, and whether, the keys differ in length.
  const expected = digest(apiKey);
  return (authorization) => {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) return "missing";
    return timingSafeEqual(digest(match[1]!), expected) ? "ok" : "wrong";
  };
}
