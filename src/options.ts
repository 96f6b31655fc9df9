import { InvalidArgumentError } from "./errors.ts";

/** The fetch the client calls: the global one, or one injected for tests, proxies or instrumentation. */
export type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

/** Options of `createFileLibraryClient`; every one has a default. */
export interface ClientOptions {
  /** Scheme, host and port of the service, such as `https://files.example.com`. Default: `FILE_LIBRARY_BASE_URL`. */
  baseUrl?: string | undefined;
  /** The workspace API key, sent as `Authorization: Bearer <key>`. Default: `FILE_LIBRARY_API_KEY`. */
  apiKey?: string | undefined;
  /** The fetch implementation. Default: `globalThis.fetch`. */
  fetch?: Fetch | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
}

/** Options accepted by every method, for one call. */
export interface RequestOptions {
  /** Aborts the request; the call then rejects with `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Headers added to this request only. */
  headers?: Record<string, string> | undefined;
}

/** Client options with defaults applied and checked. */
export interface ResolvedOptions {
  baseUrl: string;
  apiKey: string;
  fetch: Fetch;
  headers: Record<string, string>;
}

function readEnv(name: string): string | undefined {
  // `process` is absent in browsers and some edge runtimes; options must then be passed explicitly.
  const value = typeof process === "undefined" ? undefined : process.env?.[name];
  return value === "" ? undefined : value;
}

/** Applies environment defaults and rejects unusable options with an error that says what to set. */
export function resolveOptions(options: ClientOptions = {}): ResolvedOptions {
  const baseUrl = checkBaseUrl(options.baseUrl ?? readEnv("FILE_LIBRARY_BASE_URL"));
  const apiKey = checkApiKey(options.apiKey ?? readEnv("FILE_LIBRARY_API_KEY"));
  const fetch = options.fetch ?? globalThis.fetch;
  if (typeof fetch !== "function") {
    throw new InvalidArgumentError("No fetch implementation: pass { fetch } to createFileLibraryClient (this runtime has no global fetch).");
  }
  return { baseUrl, apiKey, fetch, headers: { ...options.headers } };
}

function checkBaseUrl(value: string | undefined): string {
  if (value === undefined || value.trim() === "") {
    throw new InvalidArgumentError(
      "No base URL: pass { baseUrl } to createFileLibraryClient or set FILE_LIBRARY_BASE_URL (for example https://files.example.com).",
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`The base URL ${JSON.stringify(value)} is not an absolute URL: give scheme and host, such as https://files.example.com.`);
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidArgumentError(`The base URL ${shown} must use http or https.`);
  }
  if (url.username || url.password) {
    throw new InvalidArgumentError(`The base URL ${shown} must not carry credentials: pass the key as { apiKey } or FILE_LIBRARY_API_KEY.`);
  }
  if (url.search || url.hash) {
    throw new InvalidArgumentError(`The base URL ${shown} must not have a query or fragment.`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

function checkApiKey(value: string | undefined): string {
  if (value === undefined || value.trim() === "") {
    throw new InvalidArgumentError("No API key: pass { apiKey } to createFileLibraryClient or set FILE_LIBRARY_API_KEY.");
  }
  // fetch would reject such a header with a message that quotes it; we say what is wrong without the key.
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw new InvalidArgumentError(
      "The API key contains whitespace or characters that cannot be sent in an HTTP header; check FILE_LIBRARY_API_KEY for a stray newline or space.",
    );
  }
  return value;
}
