import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataFileInUseError, SqliteStorage } from "../../sandbox/sqlite-storage.ts";
import { storageBehaviour } from "../support/storage-behaviour.ts";

describe("SqliteStorage", () => {
  describe("on a data file", () =>
    storageBehaviour(
      async () =>
        new SqliteStorage(path.join(await mkdtemp(path.join(os.tmpdir(), "file-library-sqlite-")), "files.db")),
    ));
  describe("in memory (:memory:)", () => storageBehaviour(() => new SqliteStorage()));

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
