import { fixtureProblems } from "./fixture-validator.ts";
import type { StoredFile } from "./storage.ts";

/** One file to start with: the sandbox's `--fixtures` entries and the fake's `files` (the format: fixture-schema.json). */
export interface Fixture {
  id: string;
  name: string;
  /** The file's contents; its size is their UTF-8 byte length. */
  content: string;
  labels?: string[];
  created_at?: string;
  publicUrl?: string;
}

/** Fixtures that do not match fixture-schema.json, or repeat an id. */
export class FixtureError extends Error {
  override name = "FixtureError";
}

/** Checks fixtures against the schema and for repeated ids; the error names `source`, the entry and the field. */
export function checkFixtures(data: unknown, source: string): Fixture[] {
  const errors = fixtureProblems(data);
  if (errors.length > 0) {
    const problems = errors.slice(0, 5).map((e) => `${e.instancePath || "(top)"} ${e.message}`);
    // The message names no file: the schema ships in neither package that prints it (the sandbox, the fake), so it says the format.
    throw new FixtureError(
      `${source} do not match the format, a JSON array of { id, name, content, labels?, created_at?, publicUrl? }: ${problems.join("; ")}`,
    );
  }
  const fixtures = data as Fixture[];
  const ids = new Set<string>();
  for (const fixture of fixtures) {
    if (ids.has(fixture.id)) throw new FixtureError(`${source} repeat the id ${JSON.stringify(fixture.id)}.`);
    ids.add(fixture.id);
  }
  return fixtures;
}

/** Turns fixtures into stored files: size comes from the UTF-8 content, timestamps become UTC. */
export function toStoredFiles(fixtures: Fixture[], now: Date = new Date()): StoredFile[] {
  return fixtures.map((fixture) => ({
    id: fixture.id,
    name: fixture.name,
    content: new TextEncoder().encode(fixture.content),
    labels: fixture.labels ?? [],
    created_at: new Date(fixture.created_at ?? now).toISOString(),
    ...(fixture.publicUrl === undefined ? {} : { publicUrl: fixture.publicUrl }),
  }));
}
