import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeReportFiles, writeWhole, writeWholeSync } from "../../contract-tests/report/write-whole.ts";

const scratch = () => mkdtempSync(path.join(os.tmpdir(), "write-whole-"));

describe.each([
  ["writeWhole", writeWhole],
  ["writeWholeSync", async (file: string, text: string) => writeWholeSync(file, text)],
] as const)("%s: a report written whole or not at all", (_, write) => {
  it("replaces the report with the new text and leaves nothing beside it", async () => {
    const dir = scratch();
    const file = path.join(dir, "proxy-summary.json");
    writeFileSync(file, '{"old":true}\n');
    await write(file, '{"new":true}\n');
    expect(readFileSync(file, "utf8")).toBe('{"new":true}\n');
    expect(readdirSync(dir)).toEqual(["proxy-summary.json"]);
  });

  it("writes it through a file beside it, never into the report itself: a reader holding the old one keeps it whole", async () => {
    const dir = scratch();
    const file = path.join(dir, "contract-summary.json");
    writeFileSync(file, "old");
    // A reader that opened the report before the write still reads the old text, whole (a rename, not a rewrite).
    const { openSync, readSync } = await import("node:fs");
    const held = openSync(file, "r");
    await write(file, "new text, longer than the old");
    const buffer = Buffer.alloc(64);
    expect(buffer.subarray(0, readSync(held, buffer, 0, 64, 0)).toString()).toBe("old");
    expect(readFileSync(file, "utf8")).toBe("new text, longer than the old");
  });

  it("fails as the write fails, leaving what stood there as it was and nothing beside it", async () => {
    const dir = scratch();
    // A folder where the report should go: the rename over it fails.
    const file = path.join(dir, "proxy-junit.xml");
    mkdirSync(file);
    writeFileSync(path.join(file, "kept"), "kept");
    await expect(write(file, "<testsuites/>")).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(["proxy-junit.xml"]);
    expect(readFileSync(path.join(file, "kept"), "utf8")).toBe("kept");
  });
});

describe("writeReportFiles", () => {
  it("makes the folder, writes each report whole, and names them", async () => {
    const dir = path.join(scratch(), "reports", "proxy");
    const names = await writeReportFiles(dir, { "a.json": "{}\n", "b.md": "# b\n" });
    expect(names).toEqual(["a.json", "b.md"]);
    expect(readdirSync(dir).sort()).toEqual(["a.json", "b.md"]);
    expect(readFileSync(path.join(dir, "b.md"), "utf8")).toBe("# b\n");
  });
});
