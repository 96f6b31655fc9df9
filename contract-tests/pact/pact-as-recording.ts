import { createReadStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { FORMAT, READ_HEADERS, recordedText, type RecordedExchange } from "../recording/format.ts";
import type { PactInteraction, ReadPact } from "./read-pact.ts";

/**
 * Whether a file is a Pact file rather than a recording, by its content: a recording's first line is an exchange
 * stamped with its format; a pact is one JSON document (usually pretty-printed, so its first line is no JSON at all)
 * with consumer and interactions. Only the first line is read, so a recording of any length costs one line.
 */
export async function looksLikePact(file: string): Promise<boolean> {
  if (file.toLowerCase().endsWith(".har")) return false;
  const lines = createInterface({
    input: createReadStream(file, { encoding: "utf8", end: 1024 * 1024 }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  try {
    for await (const line of lines) {
      if (line.trim() === "") continue;
      const text = line.replace(/^\uFEFF/, "").trim();
      if (!text.startsWith("{")) return false;
      try {
        const value = JSON.parse(text) as Record<string, unknown>;
        return value.format === undefined && Array.isArray(value.interactions);
      } catch {
        // A document spread over lines: a recording never is; readPact judges the whole.
        return text === "{" || /^\{\s*"(consumer|provider|interactions|metadata)"/.test(text);
      }
    }
    return false;
  } catch {
    // Unreadable: the replay's reader says why.
    return false;
  } finally {
    lines.close();
  }
}

/**
 * A pact's HTTP interactions as the lines of a recording (docs/recording-format.md), line N the pact's interaction N:
 * the request as the pact gives it (an Authorization header stands for the key, unless the interaction expects 401 or
 * 403), its response's example as what the app got. Replayed, each is judged as a recording's exchange is.
 */
export function pactAsRecording(pact: ReadPact): RecordedExchange[] {
  return pact.interactions.map((interaction, n) => exchangeOf(interaction, n + 1));
}

/** Writes the pact as a recording to `file` (JSON Lines). */
export async function writePactAsRecording(pact: ReadPact, file: string): Promise<void> {
  await writeFile(
    file,
    `${pactAsRecording(pact)
      .map((line) => JSON.stringify(line))
      .join("\n")}\n`,
  );
}

function exchangeOf(it: PactInteraction, seq: number): RecordedExchange {
  const { request, response } = it;
  const headers: Record<string, string> = {};
  for (const name of READ_HEADERS) if (request.headers[name] !== undefined) headers[name] = request.headers[name]!;
  if (request.body !== undefined && request.contentType !== undefined) headers["content-type"] ??= request.contentType;
  const authorization = request.headers.authorization;
  const refused = response.status === 401 || response.status === 403;
  const path = /%[0-9A-Fa-f]{2}/.test(request.path) ? request.path : encodeURI(request.path);
  const responseHeaders: Record<string, string> = {};
  if (response.contentType !== undefined) responseHeaders["content-type"] = response.contentType;
  return {
    format: FORMAT,
    seq,
    at: "",
    method: request.method,
    target: request.query ? `${path}?${request.query}` : path,
    operation: null,
    request: {
      auth: authorization === undefined ? "none" : refused ? "other" : "key",
      headers,
      body: request.body === undefined ? null : recordedText(request.body),
    },
    response: {
      status: response.status,
      headers: responseHeaders,
      // A body the pact gives as JSON is held member by member; any other text only where it is the download's URL.
      body: response.body === undefined || response.body === "" ? null : recordedText(response.body),
    },
    durationMs: 0,
    findings: [],
  };
}
