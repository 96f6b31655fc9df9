import { expect, it } from "vitest";
import type { FileStorage } from "../../sandbox/core/storage.ts";

/** A stored file as fixtures give it: `hello` as its content, created at a fixed time. */
export const storedFile = (id: string, labels: string[] = ["a"]) => ({
  id,
  name: `${id}.txt`,
  content: new TextEncoder().encode("hello"),
  labels,
  created_at: "2026-01-02T03:04:05.000Z",
});

/** What every FileStorage promises the core, as tests of one storage (`open` makes a new, empty one). */
export function storageBehaviour(open: () => FileStorage | Promise<FileStorage>): void {
  it("reads what it wrote last: a read kept from before an update or a put is not served after it", async () => {
    const storage = await open();
    try {
      storage.put([storedFile("f1")]);
      expect(storage.get("f1")).toEqual({
        id: "f1",
        name: "f1.txt",
        size: 5,
        labels: ["a"],
        created_at: "2026-01-02T03:04:05.000Z",
      });
      expect(storage.update("f1", { labels: ["b", "c"], publicUrl: "https://x.test/f1" })).toBe(true);
      expect(storage.get("f1")).toMatchObject({ labels: ["b", "c"], publicUrl: "https://x.test/f1" });
      expect(storage.update("f1", { publicUrl: "https://x.test/2" })).toBe(true);
      expect(storage.get("f1")).toMatchObject({ labels: ["b", "c"], publicUrl: "https://x.test/2" });
      storage.put([storedFile("f1", ["z"])]);
      expect(storage.get("f1")).toMatchObject({ labels: ["z"] });
      expect(storage.get("f1")!.publicUrl).toBeUndefined();
      expect(storage.update("nope", { labels: [] })).toBe(false);
      expect(storage.get("nope")).toBeUndefined();
      expect(storage.count()).toBe(1);
    } finally {
      storage.close();
    }
  });

  // docs/decisions.md, D05: null is "not given", other members are ignored, publicUrl is any string.
  it("keeps a field sent as null, ignores other members, and stores any string as the public URL", async () => {
    const storage = await open();
    try {
      storage.put([storedFile("f1", ["a"])]);
      const expected = (labels: string[], publicUrl?: string) => ({
        id: "f1",
        name: "f1.txt",
        size: 5,
        created_at: "2026-01-02T03:04:05.000Z",
        labels,
        ...(publicUrl === undefined ? {} : { publicUrl }),
      });
      // The Python SDK 1.0.0 to 2.2.4, labels only: publicUrl null, and no public URL was ever set.
      expect(storage.update("f1", { publicUrl: null, labels: ["b"] })).toBe(true);
      expect(storage.get("f1")).toEqual(expected(["b"]));
      // The Python SDK's documented example: a public URL without a scheme.
      expect(storage.update("f1", { publicUrl: "www.example.com" })).toBe(true);
      expect(storage.get("f1")).toEqual(expected(["b"], "www.example.com"));
      // The official TypeScript SDK: fileId in the body (another id, even), null for a field given as null.
      expect(
        storage.update("f1", { fileId: "f2", id: "f2", name: "renamed.txt", labels: ["c"], publicUrl: null }),
      ).toBe(true);
      expect(storage.get("f1")).toEqual(expected(["c"], "www.example.com"));
      expect(storage.update("f1", { labels: null, publicUrl: "" })).toBe(true);
      expect(storage.get("f1")).toEqual(expected(["c"], ""));
      expect(storage.get("f2")).toBeUndefined();
    } finally {
      storage.close();
    }
  });

  it("hands out records no caller can change under the next one, and keeps no array a caller gave it", async () => {
    const storage = await open();
    try {
      const labels = ["a"];
      storage.put([storedFile("f1", labels)]);
      const record = storage.get("f1")!;
      expect(() => record.labels.push("x")).toThrow(TypeError);
      expect(() => Object.assign(record, { name: "changed" })).toThrow(TypeError);
      labels.push("given later");
      const patch = ["b"];
      expect(storage.get("f1")).toMatchObject({ name: "f1.txt", labels: ["a"] });
      storage.update("f1", { labels: patch });
      patch.push("given later");
      expect(storage.get("f1")).toMatchObject({ labels: ["b"] });
      // A record read before an update is the file as it was then.
      expect(record.labels).toEqual(["a"]);
    } finally {
      storage.close();
    }
  });
}
