import { statSync, readdirSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { fromRoot } from "../../scripts/lib/paths.ts";
import { OpenApiValidator } from "./openapi-validator.ts";
import { startPrism, type RunningMock } from "./prism.ts";
import { specFile } from "./spec.ts";
import { liveTargetFromEnv, MOCK_API_KEY, type Target } from "./target.ts";

declare module "vitest" {
  export interface ProvidedContext {
    target: Target;
    /** The seed of every generated input of this run. */
    seed: number;
  }
}

let mock: RunningMock | undefined;

/** Starts the Prism mock (unless FILE_LIBRARY_BASE_URL names a live target, or one was handed over), and hands the target to the checks. */
export async function setup(project: TestProject): Promise<void> {
  assertBundleFresh();
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
  const document = OpenApiValidator.fromFile(specFile).document;
  // `npm run contract` starts Prism early, side by side with its other steps, and hands it over.
  const handedOver = process.env.FILE_LIBRARY_MOCK_URL;
  if (!handedOver) mock = await startPrism(specFile.replace(/\.json$/, ".yaml"));
  project.provide("target", {
    mode: "mock",
    baseUrl: handedOver ?? mock!.baseUrl,
    apiKey: MOCK_API_KEY,
    // Prism answers every id alike; the spec's own example id keeps the requests realistic.
    fileId: String((document.components?.parameters?.FileId as { example?: string } | undefined)?.example ?? "file_1"),
    writeChecks: true,
  });
}

/** Stops the mock, on success and on failure alike. */
export async function teardown(): Promise<void> {
  await mock?.stop();
}

/** Refuses to check against a bundle older than the spec it came from. */
function assertBundleFresh(): void {
  if (process.env.FILE_LIBRARY_SPEC) return;
  let bundled: number;
  try {
    bundled = statSync(specFile).mtimeMs;
  } catch {
    throw new Error(`${path.relative(fromRoot(), specFile)} is missing: run \`npm run build:spec\` (npm run contract does it for you).`);
  }
  const newest = Math.max(...listFiles(fromRoot("openapi")).map((file) => statSync(file).mtimeMs));
  if (newest > bundled) {
    throw new Error(`${path.relative(fromRoot(), specFile)} is older than openapi/: run \`npm run build:spec\` (npm run contract does it for you).`);
  }
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}
