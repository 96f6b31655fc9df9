import { curlAuthorization, type AuthMode } from "../inputs/keys.ts";

/** A request as reports show it: the key redacted. */
export interface ShownRequest {
  /** Which key it sent (how a curl command sends it again). */
  auth: AuthMode;
  method: string;
  path: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Quotes a word for a POSIX shell. */
const shellQuote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/** A curl command that repeats the request; the key (and any near miss of it) comes from $FILE_LIBRARY_API_KEY. */
export function curlFor(request: ShownRequest): string {
  const parts = ["curl", "-i", "-X", request.method, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    const fromEnvironment = name === "authorization" && request.auth !== "wrong" ? curlAuthorization(request.auth) : undefined;
    parts.push("-H", fromEnvironment ?? shellQuote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push("--data-raw", shellQuote(request.body));
  return parts.join(" ");
}
