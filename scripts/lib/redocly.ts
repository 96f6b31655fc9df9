import { runCommand, type CommandResult } from "../../lib/process.ts";
import { bin, repoRoot } from "./paths.ts";

// Redocly CLI 2 prints a boxed Node 20 end-of-life notice that no setting turns off; it says
// nothing about our spec, so it is dropped from what we show.
const BANNER_LINE = /^\s*[╔║╚].*$/;

/** Redocly stays offline and quiet: no telemetry, no update check. */
const REDOCLY_ENV = { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };

/** Runs the Redocly CLI (from the repository root by default) with telemetry off, without its Node banner. */
export async function redocly(args: string[], { cwd = repoRoot, niceness }: { cwd?: string; niceness?: number | undefined } = {}): Promise<CommandResult> {
  const result = await runCommand(bin("redocly"), args, { cwd, env: { ...process.env, ...REDOCLY_ENV }, niceness });
  const output = result.output
    .split("\n")
    .filter((line) => !BANNER_LINE.test(line))
    .join("\n")
    .replace(/^\n+/, "");
  return { code: result.code, output };
}

/**
 * Lints the spec of the redocly.yaml in `cwd`; fails on any error or warning (`redocly lint` alone passes warnings).
 * `niceness` as for runCommand: `npm run contract` lints beside the mock's start, which must not wait for it.
 */
export async function lintSpec(options: { cwd?: string; niceness?: number } = {}): Promise<{ ok: boolean; output: string }> {
  const { code, output } = await redocly(["lint", "--lint-config", "error", "--max-problems", "200"], options);
  const ok = code === 0 && !/You have \d+ warnings?/.test(output);
  return { ok, output: ok ? output : `${output}\nlint:spec failed: fix the problems above in openapi/ (rules: redocly.yaml).\n` };
}
