import type { operations } from "../src/generated/schema.d.ts";
import type { FileRecord } from "./storage.ts";

/** What an update does with the labels it is sent. */
export type LabelUpdate = "replace" | "drop" | "append" | "clear-when-omitted";

/** Every point where the sandbox can depart from the contract, or vary within it; `correctBehaviour` keeps it. */
export interface Behaviour {
  /** Status for an id that does not exist (the contract: 422). */
  unknownIdStatus(fileId: string): number;
  /** Body for an unknown id. */
  unknownIdBody(fileId: string): unknown;
  /** Status for a request without a key (the contract: 401). */
  missingKeyStatus(operationId: keyof operations): number;
  /** Whether the download needs the key (the contract: yes). */
  downloadNeedsKey: boolean;
  /** Whether any bearer token passes, as if only its presence were checked (the contract: no). */
  anyBearerPasses: boolean;
  /** How much of the key is compared: all of it (the contract), or only its first half, as a server that checks a key id but not its secret. */
  keyCompared: "whole" | "first-half";
  /** The metadata body for a stored file. */
  metadataBody(file: FileRecord): unknown;
  /** The content type of the metadata (the contract: application/json). */
  metadataContentType: string;
  /** What an update does with labels (the contract: replace; omitted keeps). */
  labelUpdate: LabelUpdate;
  /** Update bodies, invalid by the spec, that are answered 200 anyway (and not stored); the contract: none. */
  acceptsInvalidBody(body: unknown): boolean;
  /** Whether fields the schema does not know are dropped before validation, instead of rejected. */
  ignoresUnknownFields: boolean;
  /** Labels the server refuses although the schema allows them (the contract: none). */
  refusesLabel(label: string): boolean;
  /** Status for a body that is not JSON (the contract: 400 or 422). */
  malformedJsonStatus: number;
  /** Whether an update of an unknown id succeeds (the contract: no, 422). */
  updateCreatesUnknown: boolean;
  /** The update's 200: no body (the contract), `{}` as JSON (tolerated), or the metadata (a break). */
  updateAnswer: "empty" | "empty-object" | "metadata";
  /** The download answer for a signed URL. */
  downloadAnswer(signedUrl: string): { body: string; contentType: string };
  /** The x-request-id of an answer. */
  requestId(generated: string): string;
  /** Extra headers on every answer; the key is passed in so that a fault can echo it. */
  extraHeaders(apiKey: string): Record<string, string>;
  /** Milliseconds to wait before answering. */
  delayMs: number;
  /**
   * Every Nth request that arrives on a kept-alive connection is dropped unanswered and the connection closed
   * (0: never), as by a server that retires an idle connection just as the client reuses it.
   */
  dropsReusedEvery: number;
  /** Every Nth request is answered 429 with `Retry-After: 1` (0: never), as behind a rate-limiting gateway. */
  rateLimitEvery: number;
}

/** The metadata as the spec defines it. */
export function metadataOf(file: FileRecord): Record<string, unknown> {
  const { id, name, size, created_at, labels, publicUrl } = file;
  return publicUrl === undefined ? { id, name, size, created_at, labels } : { id, name, size, created_at, labels, publicUrl };
}

/** The sandbox as it should be: it keeps the contract everywhere. */
export const correctBehaviour: Behaviour = {
  unknownIdStatus: () => 422,
  unknownIdBody: (fileId) => ({ code: "file_not_found", message: `No file with id ${JSON.stringify(fileId)} exists in this workspace.` }),
  missingKeyStatus: () => 401,
  downloadNeedsKey: true,
  anyBearerPasses: false,
  keyCompared: "whole",
  metadataBody: metadataOf,
  metadataContentType: "application/json",
  labelUpdate: "replace",
  acceptsInvalidBody: () => false,
  ignoresUnknownFields: false,
  refusesLabel: () => false,
  malformedJsonStatus: 422,
  updateCreatesUnknown: false,
  updateAnswer: "empty",
  downloadAnswer: (signedUrl) => ({ body: signedUrl, contentType: "text/plain; charset=utf-8" }),
  requestId: (generated) => generated,
  extraHeaders: () => ({}),
  delayMs: 0,
  dropsReusedEvery: 0,
  rateLimitEvery: 0,
};
