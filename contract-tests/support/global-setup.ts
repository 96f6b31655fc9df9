import type { TestProject } from "vitest/node";
import { spec } from "./spec.ts";
import { liveTargetFromEnv, MOCK_API_KEY, type Target } from "./target.ts";

declare module "vitest" {
  export interface ProvidedContext {
    target: Target;
    /** The seed of every generated input of this run. */
    seed: number;
  }
}

/** Hands the target to the checks: the live server FILE_LIBRARY_BASE_URL names, or the mock the runner started. */
export async function setup(project: TestProject): Promise<void> {
  const seed = Number.isInteger(Number(process.env.FILE_LIBRARY_SEED)) && process.env.FILE_LIBRARY_SEED
    ? Number(process.env.FILE_LIBRARY_SEED)
    : Math.floor(Math.random() * 2 ** 31);
  project.provide("seed", seed);
  console.log(`contract: seed ${seed} (replay with --seed ${seed})`);
  const live = liveTargetFromEnv();
  if (live) {
    project.provide("target", live);
    return;
  }
  const mockUrl = process.env.FILE_LIBRARY_MOCK_URL;
  if (!mockUrl) {
    throw new Error("No server to check: set FILE_LIBRARY_BASE_URL (or --base-url) for a live server; in the kit's repo `npm run contract` starts the Prism mock.");
  }
  project.provide("target", {
    mode: "mock",
    baseUrl: mockUrl,
    apiKey: MOCK_API_KEY,
    // Prism answers every id alike; the spec's own example id keeps the requests realistic.
    fileId: String((spec.document.components?.parameters?.FileId as { example?: string } | undefined)?.example ?? "file_1"),
    writeChecks: true,
  });
}
