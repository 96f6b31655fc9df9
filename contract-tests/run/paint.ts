/**
 * Whether the suite's output gets colours: FORCE_COLOR (anything but 0) turns them on, NO_COLOR (any value) off, and
 * otherwise only a terminal gets them, never a file or a pipe (https://no-color.org, https://force-color.org).
 */
export function colourEnabled(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "")
    return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return isTTY;
}

/** The few styles the suite's output uses. */
export interface Paint {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

/** The styles of one run's output, each a no-op where colours are off. */
export function painter(on: boolean): Paint {
  const style = (open: number, close: number) => (text: string) =>
    on ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return { red: style(31, 39), green: style(32, 39), yellow: style(33, 39), dim: style(2, 22), bold: style(1, 22) };
}
