import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataFileInUseError, SqliteStorage } from "../../sandbox/sqlite-storage.ts";

const file = (id: string, labels: string[] = ["a"]) => ({ id, name: `${id}.txt`, content: new TextEncoder().encode("hello"), labels, created_at: "2026-01-02T03:04:05.000Z" });

describe("SqliteStorage", () => {
  it("reads what it wrote last: a read kept from before an update or a put is not served after it", async () => {
    const storage = new SqliteStorage(path.join(await mkdtemp(path.join(os.tmpdir(), "file-library-sqlite-")), "files.db"));
    try {
      storage.put([file("f1")]);
      expect(storage.get("f1")).toEqual({ id: "f1", name: "f1.txt", size: 5, labels: ["a"], created_at: "2026-01-02T03:04:05.000Z" });
      expect(storage.update("f1", { labels: ["b", "c"], publicUrl: "https://x.test/f1" })).toBe(true);
      expect(storage.get("f1")).toMatchObject({ labels: ["b", "c"], publicUrl: "https://x.test/f1" });
      expect(storage.update("f1", { publicUrl: "https://x.test/2" })).toBe(true);
      expect(storage.get("f1")).toMatchObject({ labels: ["b", "c"], publicUrl: "https://x.test/2" });
      storage.put([file("f1", ["z"])]);
      expect(storage.get("f1")).toMatchObject({ labels: ["z"] });
      expect(storage.get("f1")!.publicUrl).toBeUndefined();
      expect(storage.update("nope", { labels: [] })).toBe(false);
      expect(storage.get("nope")).toBeUndefined();
    } finally {
      storage.close();
    }
  });

  it("hands out records no caller can change under the next one", () => {
    const storage = new SqliteStorage();
    storage.put([file("f1")]);
    const record = storage.get("f1")!;
    expect(() => record.labels.push("x")).toThrow(TypeError);
    expect(() => Object.assign(record, { name: "changed" })).toThrow(TypeError);
    expect(storage.get("f1")).toMatchObject({ name: "f1.txt", labels: ["a"] });
    storage.close();
  });

  it("refuses a data file another storage holds", async () => {
    const data = path.join(await mkdtemp(path.join(os.tmpdir(), "file-library-sqlite-")), "files.db");
    const first = new SqliteStorage(data);
    try {
      expect(() => new SqliteStorage(data)).toThrow(DataFileInUseError);
    } finally {
      first.close();
    }
  });
});
