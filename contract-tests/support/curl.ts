import { REDACTED } from "../../src/redact.ts";
import type { ShownRequest } from "./exchange.ts";

/** Quotes a word for a POSIX shell. */
const shellQuote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/** A curl command that repeats the request; the key stays in the environment, as $FILE_LIBRARY_API_KEY. */
export function curlFor(request: ShownRequest): string {
  const parts = ["curl", "-i", "-X", request.method, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === "authorization" && value.includes(REDACTED)) parts.push("-H", '"Authorization: Bearer $FILE_LIBRARY_API_KEY"');
    else parts.push("-H", shellQuote(`${name}: ${value}`));
  }
  if (request.body !== undefined) parts.push("--data-raw", shellQuote(request.body));
  return parts.join(" ");
}
