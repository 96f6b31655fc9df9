/** A base URL as both the client and the contract suite take it: absolute http(s), no credentials, no query. */
export type ParsedBaseUrl = { ok: true; url: string } | { ok: false; problem: string };

/**
 * Checks a base URL and normalises it to scheme, host and path prefix without a trailing slash, so that the
 * spec's paths append to it. The problem, when there is one, finishes a sentence that starts with the URL's name.
 */
export function parseBaseUrl(value: string): ParsedBaseUrl {
  // "localhost:4010" reads as the scheme "localhost" and the path "4010": say what was surely meant instead.
  const meant = withScheme(value.trim());
  if (meant !== undefined)
    return { ok: false, problem: `${JSON.stringify(value)} has no scheme: did you mean ${meant}?` };
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return { ok: false, problem: `${JSON.stringify(value)} is not an absolute URL such as https://files.example.com.` };
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, problem: `${shown} must use http or https, not ${url.protocol.slice(0, -1)}.` };
  // Credentials in a URL end up in logs and error messages; the key has its own setting.
  if (url.username || url.password)
    return { ok: false, problem: `${shown} must not carry credentials: the API key has its own setting.` };
  if (url.search || url.hash) return { ok: false, problem: `${shown} must not have a query or fragment.` };
  return { ok: true, url: `${url.origin}${url.pathname}`.replace(/\/+$/, "") };
}

/** A URL for a host written without its scheme (`localhost:4010`, `files.example.com`): http on this machine, else https. */
function withScheme(text: string): string | undefined {
  if (text.includes("://")) return undefined;
  let hostname: string;
  try {
    ({ hostname } = new URL(`http://${text}`));
  } catch {
    return undefined;
  }
  const loopback = hostname === "localhost" || hostname === "[::1]" || hostname.startsWith("127.");
  return `${loopback ? "http" : "https"}://${text}`;
}
