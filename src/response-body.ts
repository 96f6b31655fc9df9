import { CONTROL, escapeControls, oneLine } from "./excerpt.js";
import { decodeLossy, invalidUtf8 } from "./invalid-utf8.js";
import { repeatedMemberName } from "./json-names.js";
import { missingMembers } from "./metadata-members.js";
import type { components } from "./generated/schema.js";
import { isObject } from "./is-object.js";

/** The metadata of one file, as the spec defines it. */
export type FileMetadata = components["schemas"]["FileMetadata"];

/** The Accept header of the download: the spec's plain text first, a JSON string tolerated. */
export const DOWNLOAD_ACCEPT = "text/plain, application/json;q=0.9";

/** A body read as promised, or why it could not be (for a MalformedResponseError; with `missing`, a MetadataShapeError). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string; missing?: string[] };

/** A failed read, saying why. */
export const fail = (problem: string): { ok: false; problem: string } => ({ ok: false, problem });

const EXCERPT_LENGTH = 120;

/** The longest download URL the client accepts: what HTTP servers and libraries commonly accept in a request line. */
export const MAX_URL_LENGTH = 8_192;

/** A byte-order mark at the start of a text, as it is decoded with the BOM kept. */
export const BOM = "\uFEFF";

/** What is wrong with a JSON body that starts with a byte-order mark, which RFC 8259 (8.1) says MUST NOT be sent. */
export const BOM_PROBLEM = "the body starts with a byte-order mark, which JSON must not (RFC 8259)";

/**
 * A 2xx body's bytes as text, or a problem: invalid UTF-8 is an error, never silently replaced. `text` is the bytes as
 * decodeLossy reads them (a byte-order mark kept, not dropped in silence: JSON must not start with one).
 */
export function decodeBody(bytes: Uint8Array, text: string = decodeLossy(bytes)): Parsed<string> {
  const bad = invalidUtf8(bytes, text);
  return bad ? fail(`the body is not valid UTF-8 (${bad})`) : { ok: true, value: text };
}

// application/json or any +json type, whatever its parameters and case.
const JSON_CONTENT_TYPE = /^\s*(application\/json|[^;\s]+\+json)\s*(;|$)/i;

/** The start of a body, on one line, for error messages. */
export function bodyExcerpt(text: string): string {
  return oneLine(text, EXCERPT_LENGTH) || "<empty body>";
}

/** Parses a metadata body: a JSON object, or a problem. */
export function parseMetadata(text: string): Parsed<FileMetadata> {
  if (text.startsWith(BOM)) return fail(BOM_PROBLEM);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail("the body is not JSON");
  }
  if (!isObject(value)) {
    return fail("the body is not a JSON object");
  }
  const repeated = repeatedMemberName(text);
  if (repeated !== undefined)
    return fail(`the body names ${escapeControls(JSON.stringify(repeated))} twice in one object`);
  // Never an object whose typed members are undefined (docs/decisions.md, D44).
  return missingMembers(value) ?? { ok: true, value: value as FileMetadata };
}

/**
 * The download's body as its value: whitespace around the URL (a final newline, a leading space) is not part of it
 * (docs/decisions.md, D11). The client and the contract suite read it so, and only so.
 */
export const downloadText = (text: string): string => text.trim();

const TOO_LONG = `the body is longer than a URL may be (${MAX_URL_LENGTH} characters)`;

/** Reads a download body: the URL as plain text, or a JSON string holding it; absolute http(s) only. */
export function parseDownloadUrl(text: string, contentType: string | null): Parsed<string> {
  // Checked first: no parsing or pattern runs on an unbounded string.
  if (text.length > 2 * MAX_URL_LENGTH) return fail(TOO_LONG);
  let candidate = downloadText(text);
  // JSON frameworks quote the URL; some do so under text/plain too.
  // Stryker disable next-line StringLiteral: equivalent; no content type matches the pattern whatever stands for it.
  if (JSON_CONTENT_TYPE.test(contentType ?? "") || candidate.startsWith('"')) {
    // trim() takes a BOM for whitespace: it is looked for first.
    if (text.startsWith(BOM)) return fail(BOM_PROBLEM);
    let value: unknown;
    try {
      value = JSON.parse(candidate);
    } catch {}
    if (typeof value !== "string") return fail("the body is not a JSON string");
    candidate = downloadText(value);
  }
  if (candidate === "") return fail("the body is empty");
  if (candidate.length > MAX_URL_LENGTH) return fail(TOO_LONG);
  // URL parsers drop a trailing control character and tabs or newlines within, so `new URL` would take the URL and
  // the app would get it with them: refused, and named escaped (the error's excerpt shows the body so too).
  const at = candidate.search(CONTROL);
  if (at >= 0) return fail(`the URL has a control character (${escapeControls(candidate[at]!)} at ${at})`);
  if (/\s/.test(candidate)) return fail("the body is not a single URL");
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return fail("the body is not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return fail(`the URL uses ${url.protocol.slice(0, -1)}, not http(s)`);
  }
  return { ok: true, value: candidate };
}
