import type { FileRecord } from "./storage.ts";

/** What an update does with the labels it is sent. */
export type LabelUpdate = "replace" | "drop" | "append" | "clear-when-omitted";

/** Every point where the sandbox can depart from the contract; `correctBehaviour` keeps it. */
export interface Behaviour {
  /** Status for an id that does not exist (the contract: 422). */
  unknownIdStatus: number;
  /** Body for an unknown id. */
  unknownIdBody(fileId: string): unknown;
  /** Whether the download needs the key (the contract: yes). */
  downloadNeedsKey: boolean;
  /** Whether any bearer token passes, as if only its presence were checked (the contract: no). */
  anyBearerPasses: boolean;
  /** The metadata body for a stored file. */
  metadataBody(file: FileRecord): unknown;
  /** The content type of the metadata (the contract: application/json). */
  metadataContentType: string;
  /** What an update does with labels (the contract: replace; omitted keeps). */
  labelUpdate: LabelUpdate;
  /** Whether update bodies are checked against the spec (the contract: yes). */
  validatesUpdateBody: boolean;
  /** Status for a body that is not JSON (the contract: 400 or 422). */
  malformedJsonStatus: number;
  /** Whether the update's 200 carries the metadata (the contract: no body). */
  updateAnswersWithBody: boolean;
  /** The download answer for a signed URL. */
  downloadAnswer(signedUrl: string): { body: string; contentType: string };
}

/** The metadata as the spec defines it. */
export function metadataOf(file: FileRecord): Record<string, unknown> {
  const { id, name, size, created_at, labels, publicUrl } = file;
  return publicUrl === undefined ? { id, name, size, created_at, labels } : { id, name, size, created_at, labels, publicUrl };
}

/** The sandbox as it should be: it keeps the contract everywhere. */
export const correctBehaviour: Behaviour = {
  unknownIdStatus: 422,
  unknownIdBody: (fileId) => ({ code: "file_not_found", message: `No file with id ${JSON.stringify(fileId)} exists in this workspace.` }),
  downloadNeedsKey: true,
  anyBearerPasses: false,
  metadataBody: metadataOf,
  metadataContentType: "application/json",
  labelUpdate: "replace",
  validatesUpdateBody: true,
  malformedJsonStatus: 422,
  updateAnswersWithBody: false,
  downloadAnswer: (signedUrl) => ({ body: signedUrl, contentType: "text/plain; charset=utf-8" }),
};
