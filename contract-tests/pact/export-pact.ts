import { createRequestInspector } from "../../lib/openapi/request-inspection.ts";
import { isJsonMediaType, mediaTypeOf } from "../../lib/openapi/media-type.ts";
import { createRouter } from "../../lib/openapi/router.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { redactSecrets } from "../../lib/redact-secrets.ts";
import { redactValue } from "../../src/redact.ts";
import type { RecordedBody, RecordedExchange } from "../recording/format.ts";
import { readRecording } from "../recording/read-recording.ts";
import { requestKey } from "../recording/replay.ts";
import { describeRequest, NameBook, providerState, type ProviderState } from "./interaction-names.ts";
import { DOWNLOAD_URL_REGEX, typeMatchingRules, type MatchingRules } from "./type-matchers.ts";

/** What stands for the key in every exported request: the verifier puts the real one in (`customProviderHeaders`). */
export const API_KEY_PLACEHOLDER = "<FILE_LIBRARY_API_KEY>";

/** The Pact specification versions the export writes. */
export type PactVersion = 3 | 4;

/** How to export a recording. */
export interface ExportOptions {
  /** A recording of `proxy --record`, or a HAR. */
  file: string;
  consumer: string;
  provider: string;
  version: PactVersion;
  spec: OpenApiValidator;
  /** Secrets to keep out of the pact besides what the recording already redacted (the key of the environment). */
  secrets: readonly string[];
  /** The most interactions written; a recording with more distinct requests is refused (ExportError). */
  maxInteractions: number;
}

/** The export cannot be made: one line for exit 2. */
export class ExportError extends Error {
  override name = "ExportError";
}

/** A Pact file as the export writes it: the shape specification 3 or 4 reads. */
export interface PactDocument {
  consumer: { name: string };
  provider: { name: string };
  interactions: Array<Record<string, unknown>>;
  metadata: Record<string, unknown>;
}

/** What an export made, and what of the recording it left out (in words). */
export interface ExportResult {
  pact: PactDocument;
  exchanges: number;
  duplicates: number;
  leftOut: string[];
}

type Left = "notFileLibrary" | "withoutKey" | "noBody";

/**
 * A recording as a Pact file (docs/recording-format.md, "As a Pact file"): one interaction per distinct request (as
 * the replay tells them apart), the request as the app sent it with a placeholder for the key, the response held by
 * type matchers the way a replay holds it (recording/consumer-contract.ts). Requests sent without the key or with a
 * wrong one are left out: a verifier adds the key to every request (docs/decisions.md, D26).
 */
export async function exportPact(options: ExportOptions): Promise<ExportResult> {
  const { spec } = options;
  const route = createRouter(spec);
  const inspect = createRequestInspector(spec);
  const matches = (method: string, target: string) => route(method, target.split("?", 1)[0]!)?.operationId;
  const seen = new Set<string>();
  const names = new NameBook();
  const left: Record<Left, number> = { notFileLibrary: 0, withoutKey: 0, noBody: 0 };
  const result: ExportResult = {
    pact: {
      consumer: { name: options.consumer },
      provider: { name: options.provider },
      interactions: [],
      metadata: metadataOf(options.version),
    },
    exchanges: 0,
    duplicates: 0,
    leftOut: [],
  };
  for await (const { line, exchange } of readRecording(options.file, matches)) {
    result.exchanges++;
    const rawPath = exchange.target.split("?", 1)[0]!;
    const matched = route(exchange.method, rawPath);
    const operation = matched?.operationId;
    const fileId = matched?.params.file_id;
    if (operation === undefined || fileId === undefined) {
      left.notFileLibrary++;
      continue;
    }
    const key = requestKey(exchange);
    if (seen.has(key)) {
      result.duplicates++;
      continue;
    }
    seen.add(key);
    if (exchange.request.auth !== "key") {
      left.withoutKey++;
      continue;
    }
    const sentBody = exchange.request.body;
    if (sentBody !== null && !("text" in sentBody)) {
      left.noBody++;
      continue;
    }
    if (result.pact.interactions.length >= options.maxInteractions) {
      throw new ExportError(
        `${options.file}:${line}: more than ${options.maxInteractions} distinct requests: a pact this large is refused (raise --max-interactions)`,
      );
    }
    const text = sentBody?.text;
    const inspected = inspect({
      method: exchange.method,
      rawPath,
      headers: { ...exchange.request.headers, authorization: `Bearer ${API_KEY_PLACEHOLDER}` },
      body: text,
    });
    // A 422 to a request the spec allows can only be the unknown id (the service's description: 422, not 404).
    const unknownId = exchange.response.status === 422 && inspected.findings.length === 0;
    const state = providerState(redactSecrets(fileId, options.secrets), unknownId);
    const description = names.take(
      describeRequest(
        operation,
        inspected.json ?? (text === undefined ? undefined : null),
        exchange.response.status,
        unknownId,
      ),
      state,
    );
    result.pact.interactions.push(interactionOf(exchange, operation, description, state, options));
  }
  const words: Record<Left, string> = {
    notFileLibrary: "exchange(s) to paths that are not the File Library's",
    withoutKey:
      "distinct request(s) sent without the key or with a wrong one (a verifier sends the key with every request)",
    noBody: "distinct request(s) whose body the recording did not keep",
  };
  for (const [reason, count] of Object.entries(left) as Array<[Left, number]>)
    if (count > 0) result.leftOut.push(`${count} ${words[reason]}`);
  if (result.pact.interactions.length === 0)
    throw new ExportError(
      `${options.file}: no request of it sent the key to a File Library operation: there is nothing to put in a pact`,
    );
  return result;
}

function metadataOf(version: PactVersion): Record<string, unknown> {
  return {
    pactSpecification: { version: version === 4 ? "4.0" : "3.0.0" },
    "file-library-contract": { exportedFrom: "a recording" },
  };
}

/** One exchange as an interaction of the pact's version. */
function interactionOf(
  exchange: RecordedExchange,
  operation: string,
  description: string,
  state: ProviderState,
  options: ExportOptions,
): Record<string, unknown> {
  const v4 = options.version === 4;
  const headers = (list: Record<string, string>) =>
    Object.fromEntries(Object.entries(list).map(([name, value]) => [name, v4 ? [value] : value]));
  const [rawPath, rawQuery] = [
    exchange.target.split("?", 1)[0]!,
    exchange.target.includes("?") ? exchange.target.slice(exchange.target.indexOf("?") + 1) : undefined,
  ];
  const query: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(rawQuery ?? ""))
    (query[redactSecrets(name, options.secrets)] ??= []).push(redactSecrets(value, options.secrets));

  const requestHeaders: Record<string, string> = { Authorization: `Bearer ${API_KEY_PLACEHOLDER}` };
  for (const [name, value] of Object.entries(exchange.request.headers))
    requestHeaders[titleCase(name)] = redactSecrets(value, options.secrets);
  const requestBody = bodyOf(exchange.request.body, exchange.request.headers["content-type"], options.secrets);

  const responseMediaType = mediaTypeOf(exchange.response.headers["content-type"]);
  const responseHeaders: Record<string, string> = responseMediaType ? { "Content-Type": responseMediaType } : {};
  const recordedBody = bodyOf(exchange.response.body, exchange.response.headers["content-type"], options.secrets);
  const matchingRules: { body?: MatchingRules; header?: MatchingRules } = {};
  if (responseMediaType) {
    // The media type is held, its parameters (charset) are not.
    matchingRules.header = {
      "Content-Type": {
        combine: "AND",
        matchers: [
          { match: "regex", regex: `^${responseMediaType.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*(;.*)?$` },
        ],
      },
    };
  }
  // As a replay holds it: a download URL as a URL, JSON by its members' types, any other text not at all.
  const isUrl =
    operation === "getFileDownloadUrl" &&
    exchange.response.status === 200 &&
    typeof recordedBody?.value === "string" &&
    new RegExp(DOWNLOAD_URL_REGEX).test(recordedBody.value);
  const responseBody = isUrl || recordedBody?.kind === "json" ? recordedBody : undefined;
  if (isUrl) matchingRules.body = { $: { combine: "AND", matchers: [{ match: "regex", regex: DOWNLOAD_URL_REGEX }] } };
  else if (responseBody) matchingRules.body = typeMatchingRules(responseBody.value);

  const body = (b: ReturnType<typeof bodyOf>, mediaType: string) =>
    b === undefined
      ? {}
      : v4
        ? { body: { content: b.value, contentType: mediaType || "text/plain", encoded: false } }
        : { body: b.value };
  return {
    ...(v4 ? { type: "Synchronous/HTTP" } : {}),
    description,
    providerStates: [state],
    request: {
      method: exchange.method,
      path: redactSecrets(rawPath, options.secrets),
      ...(rawQuery === undefined ? {} : { query }),
      headers: headers(requestHeaders),
      ...body(requestBody, mediaTypeOf(exchange.request.headers["content-type"])),
    },
    response: {
      status: exchange.response.status,
      headers: headers(responseHeaders),
      ...body(responseBody, responseMediaType),
      ...(Object.keys(matchingRules).length > 0 ? { matchingRules } : {}),
    },
    ...(v4 ? { pending: false } : {}),
  };
}

/** A recorded body as the pact holds it: JSON parsed when its media type is JSON and it parses, else its text; undefined when none was kept. */
function bodyOf(
  body: RecordedBody | null,
  contentType: string | undefined,
  secrets: readonly string[],
): { kind: "json" | "text"; value: unknown } | undefined {
  if (body === null || !("text" in body)) return undefined;
  const text = body.text.replace(/^\uFEFF/, "");
  if (isJsonMediaType(mediaTypeOf(contentType))) {
    try {
      return { kind: "json", value: redactValue(JSON.parse(text), secrets) };
    } catch {
      // Not JSON after all: kept as the text it is.
    }
  }
  return { kind: "text", value: redactSecrets(text, secrets) };
}

/** `content-type` as Pact files usually spell it, `Content-Type` (Pact compares header names without regard to case). */
const titleCase = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_all, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
