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

/** Control characters (C0, DEL, C1) written as `\uXXXX`, so that a message shows them instead of hiding them. */
export const escapeControls = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
