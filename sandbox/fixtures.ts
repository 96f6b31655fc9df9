import { readFileSync } from "node:fs";
import { checkFixtures, FixtureError, toStoredFiles, type Fixture } from "./core/fixtures.ts";
import type { StoredFile } from "./core/storage.ts";

export { FixtureError, toStoredFiles, type Fixture };

/** Reads and checks a fixtures file; the error names the file, the entry and the field. */
export function loadFixtures(file: string): StoredFile[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new FixtureError(`Cannot read fixtures from ${file}: ${(error as Error).message}`);
  }
  return toStoredFiles(checkFixtures(data, `Fixtures in ${file}`));
}

/** The three files a new, empty database starts with. */
export const demoFixtures: Fixture[] = [
  {
    id: "file_01HZX3K9Q4T7V2M8N6P5R1S0AB",
    name: "quarterly-report.txt",
    content: "Quarterly report\n\nRevenue grew in every region.\n",
    labels: ["finance", "q1"],
    created_at: "2026-03-14T09:26:53Z",
    publicUrl: "https://cdn.example.com/docs/quarterly-report.txt",
  },
  {
    id: "file_demo_notes",
    name: "notes.md",
    content: "# Notes\n\n- call the printer\n",
    labels: [],
    created_at: "2026-03-15T18:02:11Z",
  },
  {
    id: "file_demo_unicode",
    name: "résumé ü.txt",
    content: "Ünïcödé content: 日本語\n",
    labels: ["cv"],
    created_at: "2026-04-01T00:00:00Z",
  },
];
