import { parseArgs, type ParseArgsConfig } from "node:util";
import { SpecLoadError } from "../../lib/openapi/bundled-document.ts";
import { defaultSpecFile } from "../locations.ts";
import { readSettings, SettingError, type SuiteSettings } from "../run/settings.ts";
import type { OpenApiValidator } from "../../lib/openapi/validator.ts";
import { loadSuiteSpec } from "../run/spec.ts";

/** A command's one-line refusal: prints `PREFIX: cannot start: MESSAGE` on stderr and gives the exit code, 2. */
export type Refusal = (message: string) => 2;

/** The refusal of the command named `prefix` ("file-library-contract replay"). */
export const refusalOf =
  (prefix: string): Refusal =>
  (message) => {
    console.error(`${prefix}: cannot start: ${message}`);
    return 2;
  };

/**
 * `argv` parsed by node:util's parseArgs (strict, with positionals), or the refusal's exit code for a wrong flag,
 * which names the command's `--help`.
 */
export function parseCommandArgs<T extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: T,
  refuse: Refusal,
  help: string,
) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  } catch (error) {
    // node:util's hint on positionals that start with "-" is no help here: no file argument of ours does.
    return refuse(
      `${(error as Error).message.replace(/\. To specify a positional argument[\s\S]*$/, "")} (see ${help})`,
    );
  }
}

/** How a command that takes one file answers `--help` and a wrong count of files. */
export interface FileCommand {
  /** Where its usage is: named in the refusal of a wrong flag. */
  help: string;
  /** Its usage, printed for `--help`. */
  usage(): string;
  /** The refusal when it was given no file or several. */
  wrongCount(got: number): string;
}

/**
 * `argv` of a command that takes one file: its flags and the file, or the exit code when it is done (0 after `--help`
 * printed its usage, 2 after a refusal).
 */
export function parseFileCommand<T extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: T,
  refuse: Refusal,
  command: FileCommand,
) {
  const parsed = parseCommandArgs(argv, options, refuse, command.help);
  if (typeof parsed === "number") return parsed;
  if ((parsed.values as { help?: boolean }).help) {
    console.log(command.usage());
    return 0;
  }
  if (parsed.positionals.length !== 1) return refuse(command.wrongCount(parsed.positionals.length));
  return { values: parsed.values, file: parsed.positionals[0]! };
}

/** The suite's settings from `env` and the spec they name, or the refusal's exit code saying which is wrong. */
export function settingsAndSpec(
  env: Record<string, string | undefined>,
  refuse: Refusal,
): { settings: SuiteSettings; spec: OpenApiValidator } | 2 {
  try {
    const settings = readSettings(env);
    return { settings, spec: loadSuiteSpec(settings.specFile ?? defaultSpecFile) };
  } catch (error) {
    if (error instanceof SettingError || error instanceof SpecLoadError) return refuse(error.message);
    throw error;
  }
}
