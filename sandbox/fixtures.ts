import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { readFileSync } from "node:fs";
import type { StoredFile } from "./storage.ts";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const schema = JSON.parse(readFileSync(new URL("./fixture-schema.json", import.meta.url), "utf8")) as object;

/** One entry of a fixtures file. */
export interface Fixture {
  id: string;
  name: string;
  content: string;
  labels?: string[];
  created_at?: string;
  publicUrl?: string;
}

/** The fixtures file is unreadable or does not match fixture-schema.json. */
export class FixtureError extends Error {
  override name = "FixtureError";
}

const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);
const validate = ajv.compile<Fixture[]>(schema);

/** Turns fixtures into stored files: size comes from the UTF-8 content, timestamps become UTC. */
export function toStoredFiles(fixtures: Fixture[], now: Date = new Date()): StoredFile[] {
  return fixtures.map((fixture) => ({
    id: fixture.id,
    name: fixture.name,
    content: Buffer.from(fixture.content, "utf8"),
    labels: fixture.labels ?? [],
    created_at: new Date(fixture.created_at ?? now).toISOString(),
    ...(fixture.publicUrl === undefined ? {} : { publicUrl: fixture.publicUrl }),
  }));
}

/** Reads and checks a fixtures file; the error names the file, the entry and the field. */
export function loadFixtures(file: string): StoredFile[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new FixtureError(`Cannot read fixtures from ${file}: ${(error as Error).message}`);
  }
  if (!validate(data)) {
    const problems = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "(top)"} ${e.message}`);
    throw new FixtureError(`Fixtures in ${file} do not match sandbox/fixture-schema.json: ${problems.join("; ")}`);
  }
  const ids = new Set<string>();
  for (const fixture of data) {
    if (ids.has(fixture.id)) throw new FixtureError(`Fixtures in ${file} repeat the id ${JSON.stringify(fixture.id)}.`);
    ids.add(fixture.id);
  }
  return toStoredFiles(data);
}

/** The three files a new, empty database starts with. */
export const demoFixtures: Fixture[] = [
  {
    id: "file_demo_report",
    name: "quarterly-report.txt",
    content: "Quarterly report\n\nRevenue grew in every region.\n",
    labels: ["finance", "q1"],
    created_at: "2026-03-14T09:26:53Z",
    publicUrl: "https://cdn.example.com/docs/quarterly-report.txt",
  },
  { id: "file_demo_notes", name: "notes.md", content: "# Notes\n\n- call the printer\n", labels: [], created_at: "2026-03-15T18:02:11Z" },
  { id: "file_demo_unicode", name: "résumé ü.txt", content: "Ünïcödé content: 日本語\n", labels: ["cv"], created_at: "2026-04-01T00:00:00Z" },
];
