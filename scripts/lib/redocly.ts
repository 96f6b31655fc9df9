import { runCommand, type CommandResult } from "../../lib/process.ts";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bin, fromRoot, repoRoot, specRoot } from "./paths.ts";
import { inputsHash, provenPass, recordPass } from "./step-cache.ts";

// Redocly CLI 2 prints a boxed Node 20 end-of-life notice that no setting turns off; it says
// nothing about our spec, so it is dropped from what we show.
const BANNER_LINE = /^\s*[╔║╚].*$/;

/** Redocly stays offline and quiet: no telemetry, no update check. */
const REDOCLY_ENV = { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };

/** Runs the Redocly CLI (from the repository root by default) with telemetry off, without its Node banner. */
export async function redocly(
  args: string[],
  { cwd = repoRoot, niceness }: { cwd?: string; niceness?: number | undefined } = {},
): Promise<CommandResult> {
  const result = await runCommand(bin("redocly"), args, { cwd, env: { ...process.env, ...REDOCLY_ENV }, niceness });
  const output = result.output
    .split("\n")
    .filter((line) => !BANNER_LINE.test(line))
    .join("\n")
    .replace(/^\n+/, "");
  return { code: result.code, output };
}

/** What a lint or a bundle of the repo's spec depends on, besides the spec's files. */
export const redoclyInputs = (step: URL): string[] => [
  fromRoot("redocly.yaml"),
  fromRoot("node_modules", ".package-lock.json"),
  fileURLToPath(step),
];

/**
 * Lints the spec of the redocly.yaml in `cwd`; fails on any error or warning (`redocly lint` alone passes warnings).
 * `niceness` as for runCommand: `npm run contract` lints beside the mock's start, which must not wait for it. With
 * `reuse` (the repo's spec only), a pass on the very same inputs (step-cache.ts) is shown again instead of linting anew.
 */
export async function lintSpec(
  options: { cwd?: string; niceness?: number; reuse?: boolean } = {},
): Promise<{ ok: boolean; output: string; reused?: boolean }> {
  const ofThisRepo = (options.cwd ?? repoRoot) === repoRoot;
  const inputs =
    options.reuse && ofThisRepo
      ? await inputsHash(path.dirname(specRoot), redoclyInputs(new URL(import.meta.url)))
      : undefined;
  const earlier = inputs && (await provenPass("lint-spec", inputs));
  if (earlier)
    return {
      ok: true,
      output: `${earlier.output.trimEnd()}\n(shown from the last lint of these very inputs: \`npm run lint:spec\` lints anew)\n`,
      reused: true,
    };
  const { code, output } = await redocly(["lint", "--lint-config", "error", "--max-problems", "200"], options);
  const ok = code === 0 && !/You have \d+ warnings?/.test(output);
  if (ok && inputs) await recordPass("lint-spec", inputs, output);
  return {
    ok,
    output: ok ? output : `${output}\nlint:spec failed: fix the problems above in openapi/ (rules: redocly.yaml).\n`,
  };
}
