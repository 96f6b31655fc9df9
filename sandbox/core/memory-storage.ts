import type { FilePatch, FileRecord, FileStorage, StoredFile } from "./storage.ts";

/** Files in memory, for the fake of apps' tests and a sandbox started without --data. */
export class MemoryStorage implements FileStorage {
  private readonly files = new Map<string, StoredFile>();

  get(id: string): FileRecord | undefined {
    const file = this.files.get(id);
    if (!file) return undefined;
    const { content, labels, ...rest } = file;
    // A copy: what a caller does with it never reaches the store.
    return { ...rest, size: content.length, labels: [...labels] };
  }

  content(id: string): Uint8Array | undefined {
    return this.files.get(id)?.content;
  }

  update(id: string, patch: FilePatch): boolean {
    const file = this.files.get(id);
    if (!file) return false;
    if (patch.labels !== undefined) file.labels = [...patch.labels];
    if (patch.publicUrl !== undefined) file.publicUrl = patch.publicUrl;
    return true;
  }

  put(files: StoredFile[]): void {
    for (const file of files) this.files.set(file.id, { ...file, labels: [...file.labels] });
  }

  count(): number {
    return this.files.size;
  }

  close(): void {}
}
