import { InvalidArgumentError } from "./errors.js";
import { truncate } from "./excerpt.js";

const MAX_SHOWN = 60;

/** Rejects a file id that cannot address one file, before any request is sent. */
export function assertFileId(fileId: unknown): string {
  if (typeof fileId !== "string") {
    throw new InvalidArgumentError(`The file id must be a string, got ${fileId === null ? "null" : typeof fileId}.`);
  }
  // A blank id would address the collection; URL parsing treats "." and ".." as navigation even when
  // percent-encoded. No request could name a file by them.
  if (/^(\s*|\.\.?)$/.test(fileId)) {
    throw new InvalidArgumentError(
      `The file id ${showFileId(fileId)} cannot be sent: a URL reads it as the collection or a relative path.`,
    );
  }
  return fileId;
}

/** The id as shown in messages: quoted, and cut when long. */
export function showFileId(fileId: string): string {
  return JSON.stringify(truncate(fileId, MAX_SHOWN));
}
