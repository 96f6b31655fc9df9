/**
 * `npm run check:breaking -- [--base REF | --base-spec FILE] [--spec FILE]`: compares the spec (or a bundled file)
 * with the one at a git ref (default: the newest tag, else origin/main) or in a bundled file, judged by direction
 * (scripts/lib/breaking-changes.ts). Prints every change with the operation, its JSON pointer in both specs and why,
 * then the release it needs; fails when info.version does not follow it.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { readCommandLine, usageFailure } from "../lib/command-line.ts";
import { compareSpecs, followsBump, formatChange, requiredBump } from "./lib/breaking-changes.ts";
import { buildSpec } from "./lib/build-spec.ts";
import { bundledSpec, repoRoot } from "./lib/paths.ts";
import { redocly } from "./lib/redocly.ts";

const git = async (...args: string[]) => (await promisify(execFile)("git", args, { cwd: repoRoot })).stdout.trim();
function cannotStart(message: string): never {
  console.error(`check:breaking: cannot start: ${message}`);
  process.exit(2);
}

const COMMAND = {
  name: "check:breaking",
  invocation: "npm run check:breaking --",
  about: `Compares the spec with an older one, judges every change by direction (what breaks an existing client or
server), prints each with the operation, its JSON pointer in both specs and why, then the release the changes
need. Exits 1 when info.version does not follow it, 2 when there is nothing to compare with.`,
  flags: {
    base: { takes: "REF", help: "the git ref of the older spec (default: the newest tag, else origin/main)" },
    "base-spec": { takes: "FILE", help: "a bundled spec (YAML or JSON) to compare with, instead of a git ref" },
    spec: { takes: "FILE", help: "a bundled spec to judge, instead of openapi/ bundled now" },
  },
} as const;
const { values } = readCommandLine(COMMAND);
if (values.base !== undefined && values["base-spec"] !== undefined)
  usageFailure(COMMAND, "--base and --base-spec both name the older spec: give one of them");
let current: Record<string, unknown>;
if (values.spec) {
  current = parse(
    await readFile(values.spec, "utf8").catch(() => cannotStart(`cannot read --spec ${values.spec}.`)),
  ) as Record<string, unknown>;
} else {
  const built = await buildSpec();
  if (!built.ok) cannotStart(built.message);
  current = JSON.parse(await readFile(bundledSpec.json, "utf8"));
}

let base: unknown;
let baseName: string;
if (values["base-spec"]) {
  baseName = values["base-spec"];
  base = parse(await readFile(baseName, "utf8").catch(() => cannotStart(`cannot read --base-spec ${baseName}.`)));
} else {
  const tag = values.base ? "" : await git("describe", "--tags", "--abbrev=0").catch(() => "");
  const hasOrigin =
    !values.base && !tag && (await git("rev-parse", "--verify", "--quiet", "origin/main").catch(() => "")) !== "";
  const chosen = values.base ?? (tag || (hasOrigin ? "origin/main" : ""));
  if (!chosen) cannotStart("no tag and no origin/main to compare with: pass --base REF or --base-spec FILE.");
  baseName = chosen;
  // The old spec is split over files too: check it out aside and bundle it the same way.
  const dir = await mkdtemp(path.join(os.tmpdir(), "file-library-base-"));
  try {
    await promisify(execFile)(
      "sh",
      ["-c", `git archive ${JSON.stringify(chosen)} openapi | tar -x -C ${JSON.stringify(dir)}`],
      { cwd: repoRoot },
    ).catch(() => cannotStart(`${chosen} has no openapi/ folder (or is not a git ref).`));
    const out = path.join(dir, "bundled.yaml");
    const result = await redocly([
      "bundle",
      path.join(dir, "openapi", "openapi.yaml"),
      "--output",
      out,
      "--lint-config",
      "off",
    ]);
    if (result.code !== 0) cannotStart(`the spec at ${chosen} does not bundle:\n${result.output}`);
    base = parse(await readFile(out, "utf8"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const changes = compareSpecs(base as Record<string, unknown>, current);
const bump = requiredBump(changes);
for (const change of changes) console.log(formatChange(change));
const versionOf = (doc: unknown) => String((doc as { info?: { version?: unknown } }).info?.version ?? "0.0.0");
const [from, to] = [versionOf(base), versionOf(current)];
const breaking = changes.filter((c) => c.kind === "breaking").length;
// One verdict: what the changes need, and whether info.version already says it.
if (changes.length === 0) {
  if (!followsBump(from, to, bump, false)) {
    console.error(
      `check:breaking: no change since ${baseName}, but info.version went down from ${from} to ${to}: set it back to ${from} or higher.`,
    );
    process.exit(1);
  }
  console.log(
    `check:breaking: no change since ${baseName}: no new version needed (info.version ${to}; ${from} there).`,
  );
  process.exit(0);
}
const needs = `${changes.length} change(s) since ${baseName}, ${breaking} breaking: the release needs a ${bump} version bump`;
if (!followsBump(from, to, bump, true)) {
  console.error(
    `check:breaking: ${needs}, and info.version is ${to}, after ${from}: set ${bump === "patch" ? "a higher version" : `a higher ${bump} version`}.`,
  );
  process.exit(1);
}
console.log(`check:breaking: ${needs}; info.version ${from} → ${to} follows it.`);
