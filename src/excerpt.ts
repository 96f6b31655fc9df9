/** Cuts text to at most `max` characters, marking a cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Text on one line (each run of whitespace one space), cut to `max` characters: for messages and reports. */
export function oneLine(text: string, max: number): string {
  return truncate(text.replace(/\s+/g, " ").trim(), max);
}
