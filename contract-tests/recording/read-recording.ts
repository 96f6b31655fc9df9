import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import {
  FORMAT,
  READ_HEADERS,
  recordedText,
  type RecordedAuth,
  type RecordedBody,
  type RecordedExchange,
} from "./format.ts";

/** The recording cannot be read: one line that names the file, the line and what is wrong. */
export class RecordingError extends Error {
  override name = "RecordingError";
}

/** One exchange of a recording and where it stands in the file (its line, or its entry of a HAR). */
export interface ReadExchange {
  line: number;
  exchange: RecordedExchange;
}

/** A HAR is one JSON document, read whole: larger ones are refused (record through the proxy instead, which streams). */
export const MAX_HAR_BYTES = 256 * 1024 * 1024;

/**
 * The exchanges of a recording, streamed: a JSON Lines file (docs/recording-format.md) line by line, so that memory
 * does not grow with its length; a file whose name ends in .har as a browser's HTTP Archive (1.2). `matches` picks the
 * File Library's requests out of a HAR and gives the path its spec knows (the recorded origin and any base path
 * dropped), and `requiresKey` tells which of its operations need the key (a HAR's own header may be gone: harAuth).
 * Throws RecordingError for a file that cannot be read or a line that is no exchange of this format.
 */
export async function* readRecording(
  file: string,
  matches: (method: string, target: string) => string | undefined,
  requiresKey: (operation: string) => boolean = () => false,
): AsyncGenerator<ReadExchange> {
  const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new RecordingError(
      `cannot read the recording ${JSON.stringify(file)}: ${error.code === "ENOENT" ? "no such file" : error.message}`,
    );
  });
  if (!info.isFile()) throw new RecordingError(`the recording ${JSON.stringify(file)} is not a file`);
  if (file.toLowerCase().endsWith(".har")) {
    yield* harExchanges(file, info.size, matches, requiresKey);
    return;
  }
  const lines = createInterface({
    input: createReadStream(file, { encoding: "utf8" }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let number = 0;
  let any = false;
  for await (const text of lines) {
    number++;
    if (text.trim() === "") continue;
    any = true;
    yield { line: number, exchange: parseLine(text, `${file}:${number}`) };
  }
  if (!any)
    throw new RecordingError(
      `the recording ${JSON.stringify(file)} holds no exchange: record one with \`proxy --record FILE\``,
    );
}

const AUTHS = new Set<RecordedAuth>(["key", "other", "none"]);

/** One line of a recording, checked against the format. */
export function parseLine(text: string, where: string): RecordedExchange {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RecordingError(`${where}: not JSON: this is no recording of \`proxy --record\` (format ${FORMAT})`);
  }
  const line = value as Partial<RecordedExchange> | null;
  if (typeof line !== "object" || line === null || Array.isArray(line))
    throw new RecordingError(`${where}: not a JSON object: no exchange of format ${FORMAT}`);
  if (line.format !== FORMAT) {
    throw new RecordingError(
      `${where}: format ${JSON.stringify(line.format)}, this replay reads ${FORMAT}: record again with this version's \`proxy --record\``,
    );
  }
  const problem =
    typeof line.method !== "string"
      ? "method"
      : typeof line.target !== "string" || !line.target.startsWith("/")
        ? "target"
        : typeof line.request !== "object" ||
            line.request === null ||
            !AUTHS.has(line.request.auth) ||
            !isBody(line.request.body)
          ? "request"
          : typeof line.response !== "object" ||
              line.response === null ||
              !Number.isInteger(line.response.status) ||
              !isBody(line.response.body)
            ? "response"
            : undefined;
  if (problem) throw new RecordingError(`${where}: its ${problem} is missing or not of format ${FORMAT}`);
  return { ...line, request: { ...line.request!, headers: line.request!.headers ?? {} } } as RecordedExchange;
}

const isBody = (body: unknown): boolean =>
  body === null ||
  (typeof body === "object" &&
    body !== null &&
    (typeof (body as { text?: unknown }).text === "string" ||
      typeof (body as { elided?: unknown }).elided === "string"));

interface HarEntry {
  startedDateTime?: string;
  time?: number;
  request?: {
    method?: string;
    url?: string;
    headers?: Array<{ name: string; value: string }>;
    postData?: { mimeType?: string; text?: string };
  };
  response?: {
    status?: number;
    headers?: Array<{ name: string; value: string }>;
    content?: { text?: string; encoding?: string; size?: number };
  };
}

/** A HAR's entries to the File Library's paths, as recorded exchanges (no findings: no proxy judged them). */
async function* harExchanges(
  file: string,
  size: number,
  matches: (method: string, target: string) => string | undefined,
  requiresKey: (operation: string) => boolean,
): AsyncGenerator<ReadExchange> {
  if (size > MAX_HAR_BYTES)
    throw new RecordingError(
      `the HAR ${JSON.stringify(file)} is over ${MAX_HAR_BYTES} bytes: record the app through \`proxy --record\` instead, which streams`,
    );
  let har: { log?: { entries?: HarEntry[] } };
  try {
    har = JSON.parse((await readFile(file, "utf8")).replace(/^\uFEFF/, "")) as typeof har;
  } catch {
    throw new RecordingError(`the HAR ${JSON.stringify(file)} is not JSON: export it again from the browser (HAR 1.2)`);
  }
  const entries = har?.log?.entries;
  if (!Array.isArray(entries))
    throw new RecordingError(`the HAR ${JSON.stringify(file)} has no log.entries: it is no HTTP Archive (HAR 1.2)`);
  let seq = 0;
  for (const [index, entry] of entries.entries()) {
    const { method, url, headers = [] } = entry.request ?? {};
    const status = entry.response?.status;
    if (typeof method !== "string" || typeof url !== "string" || !Number.isInteger(status) || status === 0) continue;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    const target = fileLibraryTarget(method, `${parsed.pathname}${parsed.search}`, matches);
    // CORS preflights are the browser's, not the app's requests.
    if (
      target === undefined ||
      (method === "OPTIONS" && headers.some((h) => h.name.toLowerCase() === "access-control-request-method"))
    )
      continue;
    const header = (list: Array<{ name: string; value: string }>, name: string) =>
      list.find((h) => h.name.toLowerCase() === name)?.value;
    const authorization = header(headers, "authorization");
    const requestHeaders: Record<string, string> = {};
    for (const name of READ_HEADERS) {
      const value = header(headers, name);
      if (value !== undefined) requestHeaders[name] = value;
    }
    const responseHeaders: Record<string, string> = {};
    for (const { name, value } of entry.response?.headers ?? []) responseHeaders[name.toLowerCase()] = value;
    yield {
      line: index + 1,
      exchange: {
        format: FORMAT,
        seq: ++seq,
        at: entry.startedDateTime ?? "",
        method,
        target: target.target,
        operation: target.operation,
        request: {
          auth: harAuth(authorization, status!, requiresKey(target.operation)),
          headers: requestHeaders,
          body:
            entry.request?.postData?.text === undefined || entry.request.postData.text === ""
              ? null
              : recordedText(entry.request.postData.text),
        },
        response: { status: status!, headers: responseHeaders, body: harContent(entry.response?.content) },
        durationMs: entry.time ?? 0,
        findings: [],
      },
    };
  }
}

/**
 * Which key a HAR's request carried. Browsers export HARs without Authorization ("sanitized", Chrome's default), and
 * users blank it by hand ("Bearer [redacted]"): the header alone cannot say. The app's answer can: a success, or the
 * 422 of an operation that needs the key, came past the key check, so the request carried the key. A 401 or 403 is a
 * key refused (or none sent). Any other answer goes by the header: one bearer token is the key, none is none, and
 * anything else (a placeholder) is a wrong token. docs/recording-format.md, "HAR".
 */
export function harAuth(authorization: string | undefined, status: number, requiresKey: boolean): RecordedAuth {
  if (status === 401 || status === 403) return authorization === undefined ? "none" : "other";
  if ((status >= 200 && status < 300) || (status === 422 && requiresKey)) return "key";
  if (authorization === undefined) return "none";
  return /^Bearer +\S+$/i.test(authorization) ? "key" : "other";
}

/** The answer's content of a HAR entry, as text (base64 undone), or elided when the browser kept none. */
function harContent(content: { text?: string; encoding?: string; size?: number } | undefined): RecordedBody | null {
  if (content?.text === undefined)
    return content?.size ? { elided: "the browser kept no text of it", bytes: content.size } : null;
  if (content.encoding !== "base64") return content.text === "" ? null : recordedText(content.text);
  const bytes = Buffer.from(content.text, "base64");
  const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
  return text.includes("\uFFFD")
    ? { elided: "not UTF-8 text", bytes: bytes.length }
    : bytes.length === 0
      ? null
      : recordedText(text);
}

/**
 * The target as the spec knows it: a recorded base path (https://host/api/studio/...) dropped, segment by segment,
 * until a path of the spec matches; undefined when none does.
 */
function fileLibraryTarget(
  method: string,
  target: string,
  matches: (method: string, target: string) => string | undefined,
): { target: string; operation: string } | undefined {
  const [path, query = ""] = [target.split("?", 1)[0]!, target.includes("?") ? target.slice(target.indexOf("?")) : ""];
  for (let at = 0; at >= 0 && at < path.length; at = path.indexOf("/", at + 1)) {
    const tail = `${path.slice(at)}${query}`;
    const operation = matches(method, tail);
    if (operation) return { target: tail, operation };
  }
  return undefined;
}
