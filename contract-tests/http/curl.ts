import { isSecretName, REDACTED } from "../../src/redact.ts";
import { curlAuthorization, type AuthMode } from "../inputs/keys.ts";
import { blankSecretMembers, blankSecretQuery } from "./secret-members.ts";

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

/**
 * A curl command that repeats the request; the key (and any near miss of it) comes from $FILE_LIBRARY_API_KEY. Other
 * secret-named headers (Cookie, X-Api-Key), members of a JSON body (`token`, `password`) and parameters of a form body
 * or of the query (`token=`) are blanked, as a recording blanks them (secret-members.ts): the command is for reports,
 * and the reports are uploaded.
 */
export function curlFor(request: ShownRequest): string {
  const parts = ["curl", "-i", "-X", request.method, shellQuote(blankSecretQuery(request.url))];
  for (const [name, value] of Object.entries(request.headers)) {
    const isAuthorization = name.toLowerCase() === "authorization";
    const fromEnvironment = isAuthorization && request.auth !== "wrong" ? curlAuthorization(request.auth) : undefined;
    parts.push(
      "-H",
      fromEnvironment ?? shellQuote(`${name}: ${!isAuthorization && isSecretName(name) ? REDACTED : value}`),
    );
  }
  const contentType = Object.entries(request.headers).find(([name]) => name.toLowerCase() === "content-type")?.[1];
  if (request.body !== undefined) parts.push("--data-raw", shellQuote(blankSecretMembers(request.body, contentType)));
  return parts.join(" ");
}
