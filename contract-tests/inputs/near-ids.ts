/** A file id near the real one, and what makes it near: what a lenient lookup (a collation, a trim, a decode) folds away. */
export interface NearId {
  id: string;
  kind: string;
  /** The same id written otherwise (a UUID in another letter case): a server may serve it, or refuse it with 422. */
  sameId?: true;
}

// RFC 9562's textual form: 8-4-4-4-12 hex digits, any version or variant. Its section 4 has UUIDs compared
// without regard to case, so another letter case of one is the same UUID (docs/decisions.md, D04).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id is a UUID in RFC 9562's textual form, in any letter case. */
export const isUuid = (id: string): boolean => UUID.test(id);

const fullWidth = (c: string) => (c >= "!" && c <= "~" ? String.fromCharCode(c.charCodeAt(0) - 0x21 + 0xff01) : c);
const swapCase = (text: string) =>
  text.replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
const percentEncoded = (c: string) =>
  [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");

/**
 * Ids that a lookup which is not exact takes for the real one, each of which names no file: the real id in the other
 * case (a case-insensitive collation), with a space before or after it (a trim), with its first character written as
 * a percent escape inside the id (a path decoded twice), with an accent on its first character or that character in
 * its full-width form (accent- and width-insensitive collations, NFKC). Each must get the unknown-id answer, but
 * a UUID in the other case, which is the same id (`sameId`).
 */
export function nearIds(realId: string): NearId[] {
  const [first = "", ...rest] = [...realId];
  const tail = rest.join("");
  const candidates: NearId[] = [
    isUuid(realId)
      ? { id: swapCase(realId), kind: "in the other case (the same UUID: RFC 9562)", sameId: true }
      : { id: swapCase(realId), kind: "in the other case" },
    { id: ` ${realId}`, kind: "with a space before it" },
    { id: `${realId} `, kind: "with a space after it" },
    { id: `${percentEncoded(first)}${tail}`, kind: "with its first character percent-encoded in the id" },
    { id: `${first}\u0301${tail}`, kind: "with an accent on its first character" },
    { id: `${fullWidth(first)}${tail}`, kind: "with its first character in full width" },
  ];
  const seen = new Set([realId]);
  return candidates.filter(({ id }) => !seen.has(id) && seen.add(id));
}
