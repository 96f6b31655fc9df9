import type { components } from "../../src/generated/schema.d.ts";

/** A file's metadata, as the spec defines it (FileMetadata). */
export type FileRecord = components["schemas"]["FileMetadata"];

/** A file as the sandbox stores it: its metadata but the size, which is its content's. */
export type StoredFile = Omit<FileRecord, "size"> & { content: Uint8Array };

/**
 * The record a storage keeps and hands out for a file: its metadata, frozen with a copy of its labels, so that no
 * caller can change what the store holds. Both storages make theirs here.
 */
export function frozenRecord(file: Omit<StoredFile, "content">, size: number): FileRecord {
  const { id, name, created_at, publicUrl } = file;
  const labels = Object.freeze([...file.labels]) as string[];
  return Object.freeze(
    publicUrl == null ? { id, name, size, created_at, labels } : { id, name, size, created_at, labels, publicUrl },
  );
}

/** An update's body (UpdateFileRequest): a field absent or `null` keeps its value; other members are ignored. */
export type FilePatch = components["schemas"]["UpdateFileRequest"] & Record<string, unknown>;

/** The fields a patch changes: `null` means "not given" (docs/decisions.md, D05), and nothing else is read. */
export function givenFields(patch: FilePatch): { publicUrl?: string; labels?: string[] } {
  const { publicUrl, labels } = patch;
  return { ...(publicUrl == null ? {} : { publicUrl }), ...(labels == null ? {} : { labels }) };
}

/** Where the service keeps its files: SQLite for the sandbox (sandbox/sqlite-storage.ts), memory for the fake. */
export interface FileStorage {
  /** The metadata of a file, or undefined when there is none with this id. */
  get(id: string): FileRecord | undefined;
  /** The bytes of a file, or undefined when there is none with this id. */
  content(id: string): Uint8Array | undefined;
  /** Applies a patch; false when there is no file with this id (nothing is written then). */
  update(id: string, patch: FilePatch): boolean;
  /** Adds files, replacing any with the same id, all or none. */
  put(files: StoredFile[]): void;
  /** How many files there are. */
  count(): number;
  /** Releases what the storage holds; pending writes are already committed. */
  close(): void;
}
