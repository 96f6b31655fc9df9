import { constantTimeEquals } from "./constant-time.ts";

/** What an Authorization header amounts to. */
export type KeyCheck = "ok" | "missing" | "wrong";

/** The bearer token of an Authorization header, or undefined when it carries none. */
export const bearerToken = (authorization: string | undefined): string | undefined => /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? "")?.[1];

/** Checks `Authorization: Bearer <key>` against the service's key, in constant time. */
export function createKeyCheck(apiKey: string): (authorization: string | undefined) => KeyCheck {
  const isKey = constantTimeEquals(apiKey);
  return (authorization) => {
    const token = bearerToken(authorization);
    if (token === undefined) return "missing";
    return isKey(token) ? "ok" : "wrong";
  };
}
