import { InvalidArgumentError } from "./errors.js";
import { truncate } from "./excerpt.js";

const MAX_SHOWN = 60;

/** Rejects a file id that cannot address one file, before any request is sent. */
export function assertFileId(fileId: unknown): string {
  if (typeof fileId !== "string") {
    throw new InvalidArgumentError(`The file id must be a string, got ${fileId === null ? "null" : typeof fileId}.`);
  }
  if (fileId.trim() === "") {
    throw new InvalidArgumentError(
      "The file id is empty or blank: it would address the collection, not a file.",
    );
  }
  // URL parsing treats these segments as navigation even when percent-encoded, so no request could name them.
  if (fileId === "." || fileId === "..") {
    throw new InvalidArgumentError(`The file id ${JSON.stringify(fileId)} cannot be sent: URLs read it as a relative path.`);
  }
  return fileId;
}

/** The id as shown in messages: quoted, and cut when long. */
export function showFileId(fileId: string): string {
  return JSON.stringify(truncate(fileId, MAX_SHOWN));
}
