import { bearerToken } from "../../lib/bearer-token.ts";
import { constantTimeEquals } from "./constant-time.ts";

/** What an Authorization header amounts to. */
export type KeyCheck = "ok" | "missing" | "wrong";

/** Checks `Authorization: Bearer <key>` against the service's key, in constant time. */
export function createKeyCheck(apiKey: string): (authorization: string | undefined) => KeyCheck {
  const isKey = constantTimeEquals(apiKey);
  return (authorization) => {
    const token = bearerToken(authorization);
    if (token === undefined) return "missing";
    return isKey(token) ? "ok" : "wrong";
  };
}
