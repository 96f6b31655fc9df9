import { runCommand, type CommandResult } from "./child-process.ts";
import { bin, repoRoot } from "./paths.ts";

// Redocly CLI 2 prints a boxed Node 20 end-of-life notice that no setting turns off; it says
// nothing about our spec, so it is dropped from what we show.
const BANNER_LINE = /^\s*[╔║╚].*$/;

/** Runs the Redocly CLI from the repository root with telemetry off, without its Node banner. */
export async function redocly(args: string[]): Promise<CommandResult> {
  const result = await runCommand(bin("redocly"), args, { cwd: repoRoot });
  const output = result.output
    .split("\n")
    .filter((line) => !BANNER_LINE.test(line))
    .join("\n")
    .replace(/^\n+/, "");
  return { code: result.code, output };
}
