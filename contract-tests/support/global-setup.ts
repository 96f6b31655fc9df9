import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { OpenApiValidator } from "./openapi-validator.ts";
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
  const specFile = process.env.FILE_LIBRARY_SPEC;
  if (!specFile || !existsSync(specFile)) {
    // Checked before anything reads it, so that a missing bundle is one clear line, not a stack from deep inside.
    throw new Error(`The bundled spec ${specFile ? `${specFile} is missing` : "is not set (FILE_LIBRARY_SPEC)"}: in the kit's repo run \`npm run build:spec\` (npm run contract does it for you).`);
  }
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
  const document = OpenApiValidator.fromFile(specFile).document;
  project.provide("target", {
    mode: "mock",
    baseUrl: mockUrl,
    apiKey: MOCK_API_KEY,
    // Prism answers every id alike; the spec's own example id keeps the requests realistic.
    fileId: String((document.components?.parameters?.FileId as { example?: string } | undefined)?.example ?? "file_1"),
    writeChecks: true,
  });
}
