/**
 * `npm run check:breaking -- [--base REF | --base-spec FILE]`: compares the spec with the one at a git ref
 * (default: the newest tag, else origin/main) or in a bundled file, and fails listing every breaking change.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parseArgs } from "node:util";
import { parse } from "yaml";
import { breakingChanges } from "./lib/breaking-changes.ts";
import { buildSpec } from "./lib/build-spec.ts";
import { bundledSpec, repoRoot } from "./lib/paths.ts";
import { redocly } from "./lib/redocly.ts";

const git = async (...args: string[]) => (await promisify(execFile)("git", args, { cwd: repoRoot })).stdout.trim();
function cannotStart(message: string): never {
  console.error(`check:breaking: cannot start: ${message}`);
  process.exit(2);
}

const { values } = parseArgs({ options: { base: { type: "string" }, "base-spec": { type: "string" } }, strict: true });
const built = await buildSpec();
if (!built.ok) cannotStart(built.message);
const current = JSON.parse(await readFile(bundledSpec.json, "utf8"));

let base: unknown;
let baseName: string;
if (values["base-spec"]) {
  baseName = values["base-spec"];
  base = parse(await readFile(baseName, "utf8"));
} else {
  const tag = values.base ? "" : await git("describe", "--tags", "--abbrev=0").catch(() => "");
  const hasOrigin = !values.base && !tag && (await git("rev-parse", "--verify", "--quiet", "origin/main").catch(() => "")) !== "";
  const chosen = values.base ?? (tag || (hasOrigin ? "origin/main" : ""));
  if (!chosen) cannotStart("no tag and no origin/main to compare with: pass --base REF or --base-spec FILE.");
  baseName = chosen;
  // The old spec is split over files too: check it out aside and bundle it the same way.
  const dir = await mkdtemp(path.join(os.tmpdir(), "file-library-base-"));
  try {
    await promisify(execFile)("sh", ["-c", `git archive ${JSON.stringify(chosen)} openapi | tar -x -C ${JSON.stringify(dir)}`], { cwd: repoRoot }).catch(() =>
      cannotStart(`${chosen} has no openapi/ folder (or is not a git ref).`),
    );
    const out = path.join(dir, "bundled.yaml");
    const result = await redocly(["bundle", path.join(dir, "openapi", "openapi.yaml"), "--output", out, "--lint-config", "off"]);
    if (result.code !== 0) cannotStart(`the spec at ${chosen} does not bundle:\n${result.output}`);
    base = parse(await readFile(out, "utf8"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const changes = breakingChanges(base as Record<string, unknown>, current);
if (changes.length === 0) {
  console.log(`check:breaking: no breaking change since ${baseName}.`);
} else {
  console.error(`check:breaking: ${changes.length} breaking change(s) since ${baseName}:\n${changes.map((c) => `  - ${c}`).join("\n")}`);
  process.exit(1);
}
