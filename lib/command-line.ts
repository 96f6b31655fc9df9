/**
 * The command line of every command of the kit (the scripts of package.json, the bench, the sandbox's CLI): one table
 * of flags gives the parse and the `--help` text, so that each command answers `--help` with its usage, flags and
 * defaults (exit 0), and a wrong flag or value with one line that names it and what is accepted (exit 2).
 */
import { parseArgs } from "node:util";

/** One flag: what it takes, how its value is read, and its line in `--help`. */
export interface Flag {
  /** What the flag takes, as `--help` shows it (`N`, `FILE`); absent for a switch, which takes nothing. */
  takes?: string;
  /** A one-letter form (`-p`). */
  short?: string;
  /** What it does, for `--help`; new lines continue under it. */
  help: string;
  /** The value when the flag is absent, as typed; `--help` shows it. */
  default?: string;
  /** May be given more than once: the values come as a list (`--help` shows `--flag X...`; its help says how). */
  repeats?: true;
  /** Reads the typed text; throws a UsageError that says what is accepted. Without it, the value is the text. */
  parse?: (text: string, flag: string) => unknown;
}

/** A command: how it is typed, what it does, and its flags. */
export interface Command<Flags extends Record<string, Flag>> {
  /** What its messages start with: `bench` gives `bench: unknown flag --x ...`. */
  name: string;
  /** How a user types it, up to its flags: `npm run bench --`, `file-library-sandbox`. */
  invocation: string;
  /** What it does, for `--help`. */
  about: string;
  flags: Flags;
  /** The arguments it takes beside flags, when it takes any. */
  operands?: { name: string; help: string };
  /** The end of `--help`: environment variables, exit codes. */
  more?: string;
}

/** A flag or a value on the command line is wrong: the command does not start. */
export class UsageError extends Error {
  override name = "UsageError";
}

type ValueOf<F extends Flag> = F extends { parse: (text: string, flag: string) => infer T }
  ? T
  : F extends { takes: string }
    ? string
    : boolean;

/** The values of a command's flags: a switch is a boolean, a flag without a default may be undefined, a repeated one a list. */
export type Values<Flags extends Record<string, Flag>> = {
  [K in keyof Flags]: Flags[K] extends { repeats: true }
    ? ValueOf<Flags[K]>[]
    : Flags[K] extends { takes: string }
      ? Flags[K] extends { default: string }
        ? ValueOf<Flags[K]>
        : ValueOf<Flags[K]> | undefined
      : boolean;
};

/** What a command line asks for: the help text, or a run with these values. */
export type Parsed<Flags extends Record<string, Flag>> =
  | { help: true }
  | { help: false; values: Values<Flags>; operands: string[] };

const HELP_FLAG: Flag = { short: "h", help: "show this text and exit" };

const form = (name: string, flag: Flag) => `--${name}${flag.takes ? ` ${flag.takes}` : ""}`;

/** The --help text of a command, from its table. */
export function helpText<Flags extends Record<string, Flag>>(command: Command<Flags>): string {
  const rows: Array<[string, string]> = Object.entries({ ...command.flags, help: HELP_FLAG }).map(([name, flag]) => [
    `${flag.short ? `-${flag.short}, ` : ""}${form(name, flag)}${flag.repeats ? "..." : ""}`,
    `${flag.help}${flag.default !== undefined ? ` (default: ${flag.default})` : ""}`,
  ]);
  if (command.operands) rows.push([`${command.operands.name}...`, command.operands.help]);
  const width = Math.min(Math.max(...rows.map(([left]) => left.length)) + 2, 28);
  const lines = rows.flatMap(([left, right]) => {
    const [first, ...rest] = right.split("\n");
    const head =
      left.length + 2 > width ? [`  ${left}`, `  ${" ".repeat(width)}${first}`] : [`  ${left.padEnd(width)}${first}`];
    return [...head, ...rest.map((line) => `  ${" ".repeat(width)}${line}`)];
  });
  return [
    `Usage: ${command.invocation} [flags]${command.operands ? ` [${command.operands.name}...]` : ""}`,
    "",
    command.about,
    "",
    "Flags:",
    ...lines,
    ...(command.more ? ["", command.more] : []),
  ].join("\n");
}

/** The flags of a table that are closest to a misspelt one (at most two letters apart). */
function nearest(name: string, names: string[]): string | undefined {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++)
        next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length]!;
  };
  const [best] = names.map((known) => ({ known, d: distance(name, known) })).sort((x, y) => x.d - y.d);
  return best && best.d <= 2 ? best.known : undefined;
}

/** Parses a command line by a command's table; throws a UsageError, whose message is one line, for anything wrong. */
export function parseCommandLine<const Flags extends Record<string, Flag>>(
  command: Command<Flags>,
  argv: string[],
): Parsed<Flags> {
  const table: Record<string, Flag> = { ...command.flags, help: HELP_FLAG };
  const shorts = new Map(
    Object.entries(table).flatMap(([name, flag]) => (flag.short ? [[flag.short, name] as const] : [])),
  );
  const options = Object.fromEntries(
    Object.entries(table).map(
      ([name, flag]) =>
        [name, { type: flag.takes ? "string" : "boolean", ...(flag.short ? { short: flag.short } : {}) }] as const,
    ),
  );
  // Not strict: every token comes back, so that the messages are ours (node's name no accepted form and end in a stack).
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const texts = new Map<string, string[]>();
  const operands: string[] = [];
  const accepted = () =>
    Object.entries(table)
      .map(([name, flag]) => form(name, flag))
      .join(", ");
  for (const token of tokens) {
    if (token.kind === "option-terminator") continue;
    if (token.kind === "positional") {
      if (!command.operands)
        throw new UsageError(
          `unexpected argument ${JSON.stringify(token.value)}: ${command.invocation} takes only flags (${accepted()})`,
        );
      operands.push(token.value);
      continue;
    }
    // node names a known short flag by its long name: the raw "-x" is what was typed.
    const name = token.rawName.startsWith("--") ? token.name : shorts.get(token.rawName.slice(1));
    const flag = name === undefined ? undefined : table[name];
    if (name === undefined || flag === undefined) {
      const guess = token.rawName.startsWith("--") ? nearest(token.name, Object.keys(table)) : undefined;
      throw new UsageError(
        `unknown flag ${token.rawName}${guess ? ` (did you mean --${guess}?)` : ""}; the flags are ${accepted()}`,
      );
    }
    if (!flag.takes) {
      if (token.value !== undefined)
        throw new UsageError(`--${name} takes no value, got ${JSON.stringify(`${token.rawName}=${token.value}`)}`);
      texts.set(name, ["true"]);
      continue;
    }
    // A value from the next argument that looks like a flag is a forgotten value: `--port --host x`.
    if (token.value === undefined || (!token.inlineValue && /^-./.test(token.value))) {
      throw new UsageError(
        `--${name} needs a value: ${form(name, flag)}${token.value === undefined ? "" : ` (one that starts with "-" goes as --${name}=VALUE)`}`,
      );
    }
    texts.set(name, [...(flag.repeats ? (texts.get(name) ?? []) : []), token.value]);
  }
  if (texts.has("help")) return { help: true };
  const values: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(command.flags)) {
    if (!flag.takes) {
      values[name] = texts.has(name);
      continue;
    }
    const given = texts.get(name) ?? (flag.default !== undefined ? [flag.default] : []);
    const read = given.map((text) => (flag.parse ? flag.parse(text, `--${name}`) : text));
    values[name] = flag.repeats ? read : read[0];
  }
  return { help: false, values: values as Values<Flags>, operands };
}

/**
 * For command-line entry points: parses `argv` (default: this process's) by the command's table. `--help` prints the
 * help text and exits 0; a wrong flag or value prints one line on stderr and exits 2.
 */
export function readCommandLine<const Flags extends Record<string, Flag>>(
  command: Command<Flags>,
  argv: string[] = process.argv.slice(2),
): { values: Values<Flags>; operands: string[] } {
  let parsed: Parsed<Flags>;
  try {
    parsed = parseCommandLine(command, argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageFailure(command, error.message);
  }
  if (parsed.help) {
    console.log(helpText(command));
    process.exit(0);
  }
  return parsed;
}

/** For a command's own checks of its flags after the parse (two that exclude each other): one line, exit 2. */
export function usageFailure(
  command: Pick<Command<Record<string, Flag>>, "name" | "invocation">,
  message: string,
): never {
  console.error(`${command.name}: ${message} (see ${command.invocation} --help)`);
  process.exit(2);
}

/** A parser of whole numbers from `min` (and up to `max`) for a flag's table. */
export const wholeNumber =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (text: string, flag: string): number => {
    const value = Number(text);
    if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
      throw new UsageError(
        `${flag} takes a whole number ${max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`}, got ${JSON.stringify(text)}`,
      );
    }
    return value;
  };

/** A port to listen on, for a flag's table: 0 (a free one, which the server prints) to 65535. The sandbox's and the mock's. */
export function port(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) > 65_535) {
    throw new UsageError(
      `${flag} takes a port number from 0 to 65535 (0: a free one, printed once listening), got ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}

/** What a server says when the port it was given is taken (the sandbox's and the mock's). */
export const portInUse = (port: number, host: string): string =>
  `Port ${port} on ${host} is in use: pass --port 0 for a free one.`;

/** A parser of a comma-separated list of names, each one of `known`, for a flag's table. */
export const namesOf =
  (known: readonly string[]) =>
  (text: string, flag: string): string[] => {
    const names = text
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    const unknown = names.filter((name) => !known.includes(name));
    if (names.length === 0 || unknown.length > 0) {
      throw new UsageError(
        `${flag} takes names from ${known.join(", ")}, comma-separated; ${names.length === 0 ? "got none" : `unknown: ${unknown.join(", ")}`}`,
      );
    }
    return names;
  };
