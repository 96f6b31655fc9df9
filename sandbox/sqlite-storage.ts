import Database from "better-sqlite3";
import {
  frozenRecord,
  givenFields,
  type FilePatch,
  type FileRecord,
  type FileStorage,
  type StoredFile,
} from "./core/storage.ts";

interface Row {
  id: string;
  name: string;
  size: number;
  labels: string;
  created_at: string;
  public_url: string | null;
}

// Enough for any test's or app's working set; past it the reads start over.
const RECORDS_KEPT = 10_000;

/** Another process holds the data file. */
export class DataFileInUseError extends Error {
  override name = "DataFileInUseError";
}

/**
 * The sandbox's files in SQLite: in memory, or in a file where every acknowledged write is durable. A file is
 * held by one process at a time: a second one on the same file fails at once with DataFileInUseError.
 */
export class SqliteStorage implements FileStorage {
  private readonly db: Database.Database;
  private readonly statements;
  // The metadata read so far, by id (GET metadata is the sandbox's most frequent request).
  private readonly records = new Map<string, FileRecord>();

  constructor(path = ":memory:") {
    // No busy wait: a file another process holds is refused at once, not after better-sqlite3's 5 s default.
    this.db = new Database(path, { timeout: 0 });
    if (path !== ":memory:") {
      try {
        // Held from the first transaction until close: two sandboxes never share (and interleave writes into) one file.
        this.db.pragma("locking_mode = EXCLUSIVE");
        this.db.pragma("journal_mode = WAL");
        this.db.exec("BEGIN EXCLUSIVE; COMMIT");
      } catch (error) {
        this.db.close();
        if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
        throw new DataFileInUseError(
          `The data file ${path} is in use by another sandbox: stop that one, or pass another --data file.`,
        );
      }
      // Each statement commits before it returns, and FULL syncs the commit to disk: a 200 sent after it survives SIGKILL.
      this.db.pragma("synchronous = FULL");
    }
    this.db.exec(`CREATE TABLE IF NOT EXISTS files (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      content BLOB NOT NULL,
      labels TEXT NOT NULL,
      created_at TEXT NOT NULL,
      public_url TEXT
    ) STRICT`);
    this.statements = {
      get: this.db.prepare<[string], Row>(
        "SELECT id, name, length(content) AS size, labels, created_at, public_url FROM files WHERE id = ?",
      ),
      content: this.db.prepare<[string], { content: Uint8Array }>("SELECT content FROM files WHERE id = ?"),
      upsert: this.db.prepare(
        "INSERT OR REPLACE INTO files (id, name, content, labels, created_at, public_url) VALUES (@id, @name, @content, @labels, @created_at, @public_url)",
      ),
      update: this.db.prepare(
        "UPDATE files SET labels = coalesce(@labels, labels), public_url = coalesce(@public_url, public_url) WHERE id = @id",
      ),
      count: this.db.prepare<[], { n: number }>("SELECT count(*) AS n FROM files"),
    };
  }

  /**
   * The metadata of a file, or undefined when there is none with this id. Read once, then kept until this storage
   * writes it: the process holds the file alone (locking_mode EXCLUSIVE), so no other can change a row under it.
   */
  get(id: string): FileRecord | undefined {
    const kept = this.records.get(id);
    if (kept) return kept;
    const row = this.statements.get.get(id);
    if (!row) return undefined;
    const labels = JSON.parse(row.labels) as string[];
    const publicUrl = row.public_url === null ? {} : { publicUrl: row.public_url };
    const record = frozenRecord(
      { id: row.id, name: row.name, created_at: row.created_at, labels, ...publicUrl },
      row.size,
    );
    if (this.records.size >= RECORDS_KEPT) this.records.clear();
    this.records.set(id, record);
    return record;
  }

  /** The bytes of a file, or undefined when there is none with this id. */
  content(id: string): Uint8Array | undefined {
    return this.statements.content.get(id)?.content;
  }

  /** Applies a patch; false when there is no file with this id (nothing is written then). */
  update(id: string, patch: FilePatch): boolean {
    this.records.delete(id);
    const { labels, publicUrl } = givenFields(patch);
    // coalesce keeps the column for a field not given (a SQL NULL here).
    const result = this.statements.update.run({
      id,
      labels: labels === undefined ? null : JSON.stringify(labels),
      public_url: publicUrl ?? null,
    });
    return result.changes > 0;
  }

  /** Adds files, replacing any with the same id, all in one transaction. */
  put(files: StoredFile[]): void {
    this.records.clear();
    this.db.transaction((batch: StoredFile[]) => {
      for (const file of batch) {
        this.statements.upsert.run({
          id: file.id,
          name: file.name,
          content: file.content,
          labels: JSON.stringify(file.labels),
          created_at: file.created_at,
          public_url: file.publicUrl ?? null,
        });
      }
    })(files);
  }

  /** How many files there are. */
  count(): number {
    return this.statements.count.get()!.n;
  }

  /** Closes the database; pending writes are already committed. */
  close(): void {
    if (this.db.open) this.db.close();
  }
}
