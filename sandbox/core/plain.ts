import type { components } from "../../src/generated/schema.d.ts";

/** A request as every adapter hands it to the service: no node:http, no WHATWG objects. */
export interface PlainRequest {
  method: string;
  /** The request target as sent: the raw path and query, percent-encoding untouched. */
  target: string;
  /** Header values by lower-case name. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body's bytes (empty when there is none). */
  body: Uint8Array;
  /** Scheme, host and port the request came to: signed URLs point back there. */
  origin: string;
  /** How many requests its connection carried, this one included (1 when the transport has no connections). */
  connectionRequests: number;
  /** Which connection it came on, a number per connection (absent when the transport has no connections). */
  connection?: number | undefined;
}

/** An answer as the service gives it; the adapter sets Content-Length and writes it. */
export interface PlainAnswer {
  status: number;
  /** Header values by lower-case name. */
  headers: Record<string, string>;
  body: Uint8Array | string;
  /** Close the connection after this answer. */
  close?: boolean;
  /** No answer at all: the connection is dropped (a fault, or an app's test of a lost connection). */
  drop?: boolean;
}

/** The service, or the service wrapped in faults, variants or CORS: all take a plain request to a plain answer. */
export type Service = (request: PlainRequest) => Promise<PlainAnswer>;

/** One problem in a request, in the `detail` list of an error body (ValidationErrorItem). */
export type ErrorDetail = components["schemas"]["ValidationErrorItem"];

/** A JSON answer. */
export const jsonAnswer = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  contentType = "application/json",
): PlainAnswer => ({
  status,
  headers: { ...headers, "content-type": contentType },
  body: JSON.stringify(body),
});

/** A text answer. */
export const textAnswer = (status: number, text: string, contentType = "text/plain; charset=utf-8"): PlainAnswer => ({
  status,
  headers: { "content-type": contentType },
  body: text,
});

/** An answer with no body. */
export const emptyAnswer = (status: number, headers: Record<string, string> = {}): PlainAnswer => ({
  status,
  headers,
  body: "",
});

/** An error answer of the documented shape (ErrorBody): a code, a message, and optionally the problems found. */
export function errorAnswer(
  status: number,
  code: string,
  message: string,
  detail?: ErrorDetail[],
  headers: Record<string, string> = {},
): PlainAnswer {
  const body: components["schemas"]["ErrorBody"] = detail ? { code, message, detail } : { code, message };
  return jsonAnswer(status, body, headers);
}

const decoder = new TextDecoder();

/** The body of an answer or a request as text. */
export const textOf = (body: Uint8Array | string): string => (typeof body === "string" ? body : decoder.decode(body));

/** The body parsed as JSON, or undefined when it is not JSON. */
export function jsonOf(body: Uint8Array | string): unknown {
  try {
    return JSON.parse(textOf(body));
  } catch {
    return undefined;
  }
}

/** The `code` of an error answer's body, if it has one. */
export const errorCodeOf = (answer: PlainAnswer): unknown =>
  (jsonOf(answer.body) as { code?: unknown } | undefined)?.code;
