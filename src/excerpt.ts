/** Cuts text to at most `max` characters, marking a cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Text on one line (each run of whitespace one space), cut to `max` characters, with every control character it
 * cannot show escaped (`\u0000`): for messages and reports.
 */
export function oneLine(text: string, max: number): string {
  return escapeControls(truncate(text.replace(/\s+/g, " ").trim(), max));
}

/** The control characters: C0, DEL and C1. */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Control characters written as `\uXXXX`, so that a message shows them instead of hiding them. */
export const escapeControls = (text: string): string =>
  text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
