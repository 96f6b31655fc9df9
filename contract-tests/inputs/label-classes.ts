/**
 * Label values a real server is tempted to normalize, one class each: a run with write checks sends them all, in
 * one list, whatever the seed (generated lists never hold such values). Each must come back exactly as sent.
 */
export const LABEL_CLASSES: Record<string, readonly string[]> = {
  duplicates: ["dup", "dup"],
  "leading and trailing whitespace": ["  padded  ", "\ttabbed"],
  "composed and decomposed Unicode forms of the same text": ["caf\u00e9", "cafe\u0301"],
  "the empty string": [""],
  "a long label (1,000 characters)": ["l".repeat(1_000)],
  // The service description speaks of comma-separated values: a server may split or join on them.
  "commas, with spaces around them": ["red,green", "a , b", " ,", "x, y, z"],
  "non-Latin text and emoji": ["日本語", "Ελληνικά", "🎉 party"],
  // A server that HTML-escapes what it stores hands &lt;b&gt; back.
  "markup characters (& < > \" ' /)": ["<b>Q&A</b>", `say "hi" & 'bye'`, "a/b > c"],
  "characters outside the Basic Multilingual Plane": ["𝒳𝔂𝕫", "\u{10FFFF}x"],
  "whitespace at both ends": [" both ", "\n newline at the start", "tab at the end\t"],
};

/** How many labels the list holds: more than common limits (10, 20, 50). */
export const LONG_LIST = 60;

/** Every class's values, padded with plain labels to LONG_LIST items: one body sends them all. */
export function labelClassesList(): string[] {
  const values = Object.values(LABEL_CLASSES).flat();
  return [...values, ...Array.from({ length: LONG_LIST - values.length }, (_, i) => `contract-label-${i + 1}`)];
}

/**
 * The service's own limit: "a maximum of 20 unique labels" (its OpenAPI document, FileResponse's labels). A server
 * that refuses a longer list, or duplicates, with 422 keeps the contract (docs/decisions.md, D06).
 */
export const SERVICE_LABEL_LIMIT = 20;

/**
 * Every class's values in lists a server with the service's own limit takes: at most `limit` labels each, none twice
 * in one list; the duplicates class last, on its own (a server may refuse it with 422). Sent when the whole list is
 * refused with 422.
 */
export function labelClassChunks(limit = SERVICE_LABEL_LIMIT): string[][] {
  const chunks: string[][] = [];
  for (const [name, values] of Object.entries(LABEL_CLASSES)) {
    if (name === "duplicates") continue;
    for (const value of values) {
      const last = chunks.at(-1);
      if (last && last.length < limit && !last.includes(value)) last.push(value);
      else chunks.push([value]);
    }
  }
  return [...chunks, [...LABEL_CLASSES.duplicates!]];
}

/** How long the publicUrl a write run sends is: longer than the 255 or 1,024 characters of common column types. */
export const LONG_URL_LENGTH = 2_048;

/** A publicUrl of exactly LONG_URL_LENGTH characters, unique to this run, made of what real signed URLs hold. */
export function longPublicUrl(fileId: string, now = Date.now()): string {
  const head = `https://contract-check.example.test/${encodeURIComponent(fileId)}?v=${now}&token=`;
  return head + "0123456789abcdef".repeat(Math.ceil(LONG_URL_LENGTH / 16)).slice(0, LONG_URL_LENGTH - head.length);
}

/** The names of the classes the list holds, for the report (how they were sent is recorded apart: one list, or lists of at most 20). */
export const labelClassNames = (): string[] => Object.keys(LABEL_CLASSES);
