/**
 * The one way the judges' unit tests make an exchange: an answer (status, headers, body as bytes, text or a JSON
 * value, its media type) to a request of one operation, put through the suite's own `exchangeFrom`, judged against
 * the bundled spec loaded as the suite loads it. Tests never write an Exchange literal: when the Exchange changes,
 * this file alone follows it.
 */
import type { OperationId } from "../../contract-tests/checks/types.ts";
import { exchangeFrom, type Exchange } from "../../contract-tests/http/exchange.ts";
import type { ShownRequest } from "../../contract-tests/http/curl.ts";
import { defaultSpecFile } from "../../contract-tests/locations.ts";
import { loadSuiteSpec } from "../../contract-tests/run/spec.ts";
import { invalidUtf8 } from "../../src/invalid-utf8.ts";
import type { OpenApiDocument } from "../../lib/openapi/spec-operations.ts";
import { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { readFileSync } from "node:fs";

/** The bundled spec, read once, as a run reads it (FILE_LIBRARY_SPEC unset: the repo's dist/openapi.json). */
export const spec = loadSuiteSpec(defaultSpecFile);

/** The id of the file every built request names, unless told otherwise. */
export const FILE_ID = "doc-1";

/** Metadata that the spec accepts, for a 200 to getFile. */
export const metadataOf = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: FILE_ID,
  name: "report.pdf",
  size: 1234,
  created_at: "2026-01-02T03:04:05Z",
  labels: ["q3"],
  ...fields,
});

/** A request as the builder shows it: the operation's method and path for the file, and what was sent. */
export interface RequestParts {
  fileId?: string;
  /** The body sent, as the report shows it. */
  body?: string | undefined;
}

/** What an answer is made of. One of `json`, `text` or `bytes` is the body; none is an empty body. */
export interface AnswerParts {
  operationId?: OperationId;
  status?: number;
  /** Headers of the answer; `contentType` is added to them. */
  headers?: Record<string, string>;
  /** The Content-Type header; the default is application/json for `json`, none otherwise. null: none at all. */
  contentType?: string | null;
  json?: unknown;
  text?: string;
  bytes?: Uint8Array;
  /** The limit the body was cut at, as the transport reports a longer body. */
  cut?: number;
  durationMs?: number;
  /** The secrets of the run (the API key and its near misses): where one comes back is noted, and it is redacted. */
  secrets?: readonly string[];
  request?: RequestParts;
}

/** The request an answer answers, as a run shows it (the key never shown). */
export function shownRequest(operationId: OperationId, { fileId = FILE_ID, body }: RequestParts = {}): ShownRequest {
  const { method, path: template } = spec.operation(operationId);
  const path = template.replace("{file_id}", encodeURIComponent(fileId));
  return {
    auth: "valid",
    method,
    path,
    url: `http://server.test${path}`,
    headers: { authorization: "Bearer [REDACTED]" },
    ...(body === undefined ? {} : { body }),
  };
}

/** An exchange as the suite's transport would hand it to the checks. */
export function answer(parts: AnswerParts = {}): Exchange {
  const operationId = parts.operationId ?? "getFile";
  const bytes =
    parts.bytes ?? new TextEncoder().encode(parts.json !== undefined ? JSON.stringify(parts.json) : (parts.text ?? ""));
  // Decoded as the transport decodes (contract-tests/http/transport.ts): a byte-order mark is kept, for json_well_formed.
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  const contentType =
    parts.contentType === undefined
      ? parts.json !== undefined
        ? "application/json"
        : undefined
      : (parts.contentType ?? undefined);
  const headers = new Headers(parts.headers);
  if (contentType !== undefined) headers.set("content-type", contentType);
  return exchangeFrom(
    operationId,
    shownRequest(operationId, parts.request),
    {
      status: parts.status ?? 200,
      headers,
      text: parts.cut === undefined ? text : text.slice(0, parts.cut),
      cut: parts.cut,
      invalidUtf8: text.includes("\uFFFD") ? invalidUtf8(bytes) : undefined,
      durationMs: parts.durationMs ?? 5,
    },
    // What is redacted from what is shown, and what an echo is looked for: the key (the answer is judged as received).
    { secrets: parts.secrets ?? [], credentials: parts.secrets ?? [] },
  );
}

/** The bundled spec with one edit (a header made required, say): for a rule that the spec as it is never reaches. */
export function specWith(edit: (document: Record<string, any>) => void): OpenApiValidator {
  const document = JSON.parse(readFileSync(defaultSpecFile, "utf8")) as Record<string, any>;
  edit(document);
  return new OpenApiValidator(document as OpenApiDocument);
}
