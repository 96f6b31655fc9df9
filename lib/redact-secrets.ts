/** What a secret is replaced with wherever the suite, the proxy or the sandbox shows a text. */
export const REDACTED = "[REDACTED]";

// What a word is made of: a secret of these characters alone may be a word or part of one.
const WORD = /[A-Za-z0-9_]/;

// A percent escape (RFC 3986 §2.1), in either case of hex: whether a text (or a secret) holds one at all.
const ESCAPE = /%[0-9A-Fa-f]{2}/;

const utf8 = new TextEncoder();

/**
 * Whether a secret could not be an ordinary word: eight characters or more, and something other than letters. Only such
 * a secret is looked for inside other text; any other one ("test", "k1") only as a word of its own. The client's rule
 * (src/redact.ts, which stands alone and cannot import this); test/suite/redact-secrets.test.ts holds the two to it.
 */
export const isDistinctive = (secret: string): boolean => secret.length >= 8 && /[^A-Za-z]/.test(secret);

/**
 * A text as the bytes it stands for, each percent escape decoded: `bytes` holds one character per byte (a literal
 * non-ASCII character as its UTF-8 bytes), and byte i came from text[from[i], to[i]) (an escape is three characters).
 */
interface Decoded {
  bytes: string;
  from: number[];
  to: number[];
}

/** The value of a hex digit's character code, or -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** A Decoded made one byte at a time: `push` notes a byte and the characters of the text it came from. */
function decodedBuilder() {
  const codes: number[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const push = (byte: number, start: number, end: number) => {
    codes.push(byte);
    from.push(start);
    to.push(end);
  };
  const done = (): Decoded => {
    let bytes = "";
    // In slices: a call's arguments are bounded.
    for (let at = 0; at < codes.length; at += 8192) bytes += String.fromCharCode(...codes.slice(at, at + 8192));
    return { bytes, from, to };
  };
  return { push, done };
}

/** The value of the escape at i of a text ("%2B" → 0x2B), or -1 where none starts. */
function escapeAt(text: string, i: number): number {
  const high = text.charCodeAt(i) === 37 ? hexValue(text.charCodeAt(i + 1)) : -1;
  const low = high >= 0 ? hexValue(text.charCodeAt(i + 2)) : -1;
  return low >= 0 ? high * 16 + low : -1;
}

/** The bytes a text's characters and percent escapes stand for, with where each came from. */
function decode(text: string): Decoded {
  const { push, done } = decodedBuilder();
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    const escaped = escapeAt(text, i);
    if (escaped >= 0) {
      push(escaped, i, i + 3);
      i += 3;
    } else if (code < 0x80) {
      push(code, i, i + 1);
      i += 1;
    } else {
      const point = text.codePointAt(i)!;
      const width = point > 0xffff ? 2 : 1;
      for (const byte of utf8.encode(String.fromCodePoint(point))) push(byte, i, i + width);
      i += width;
    }
  }
  return done();
}

/**
 * The bytes a decoded text stands for once its escapes are decoded again (`%252B` was `%2B` and is now `+`); each byte
 * still says which characters of the text it came from. The bytes are bytes already: nothing is UTF-8 encoded twice.
 */
function decodeAgain(below: Decoded): Decoded {
  const { push, done } = decodedBuilder();
  const { bytes, from, to } = below;
  for (let i = 0; i < bytes.length; ) {
    const escaped = escapeAt(bytes, i);
    const width = escaped >= 0 ? 3 : 1;
    push(escaped >= 0 ? escaped : bytes.charCodeAt(i), from[i]!, to[i + width - 1]!);
    i += width;
  }
  return done();
}

/**
 * How many times a text's escapes are decoded, at most. A client that encodes an id already encoded sends the key
 * encoded twice (`sk_Abc%252Bdef`), and one more layer (a URL encoded again to be logged or forwarded) makes three.
 * Bounded because each decoding costs a pass over the text and may take off as little as two characters
 * (`%252525…2B`): decoding until no escape is left would be quadratic in a hostile text. A secret hidden under more
 * layers than that is not what a client sends by mistake.
 */
const MOST_DECODINGS = 3;

/**
 * A text's bytes with its escapes decoded once, twice, … up to MOST_DECODINGS times, each level made from the one
 * before, only when asked for and only while the level before still holds an escape.
 */
class Decodings {
  private readonly text: string;
  private readonly levels: Decoded[] = [];
  /** Whether the text holds an escape at all: without one, no level differs from the text. */
  readonly escaped: boolean;
  private deepest: boolean;

  constructor(text: string) {
    this.text = text;
    this.escaped = ESCAPE.test(text);
    this.deepest = !this.escaped;
  }

  /** The text decoded `depth` times (1 to MOST_DECODINGS); undefined where that level would be the one before. */
  at(depth: number): Decoded | undefined {
    while (this.levels.length < depth && !this.deepest) {
      const below = this.levels.at(-1);
      const level = below ? decodeAgain(below) : decode(this.text);
      this.levels.push(level);
      this.deepest = !ESCAPE.test(level.bytes);
    }
    return this.levels[depth - 1];
  }
}

/** A secret's UTF-8 bytes, one character per byte, as `decode` spells a text. */
const bytesOf = (secret: string): string => String.fromCharCode(...utf8.encode(secret));

/**
 * The text with each place that spells the secret replaced by [REDACTED]: where a distinctive secret appears, inside
 * other text too; any other one only where it stands as a word of its own. `decoded` undefined: the text has no escape.
 */
function redactOne(text: string, secret: string, decoded: Decoded | undefined): string {
  const seen = decoded ? decoded.bytes : text;
  const needle = decoded ? bytesOf(secret) : secret;
  const distinctive = isDistinctive(secret);
  let out = "";
  let from = 0;
  for (let at = seen.indexOf(needle); at >= 0; at = seen.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    const start = decoded ? decoded.from[at]! : at;
    if (start < from || (!distinctive && (WORD.test(seen[at - 1] ?? "") || WORD.test(seen[end] ?? "")))) continue;
    out += text.slice(from, start) + REDACTED;
    from = decoded ? decoded.to[end - 1]! : end;
  }
  return out + text.slice(from);
}

/**
 * Replaces each secret (longest first, as given) wherever a text spells it, as it is or percent-encoded: its escapes
 * decoded, whatever their hex case and whichever characters are escaped (`sk_Abc%2bdef`, `%73%6B…`, `%64ev-key`), and
 * decoded again up to MOST_DECODINGS times (`sk_Abc%252Bdef`, `%252B` and `%2B` in one text), the characters that
 * spell the secret are replaced whole. A distinctive secret (isDistinctive) is found inside other text too; any other
 * one only as a word of its own (never inside "Check", "text/plain" or "file_1"), judged at each level on what the
 * escapes stand for there. The one redaction of the suite's and the proxy's reports and recordings and of the
 * sandbox's log.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  // The text's levels of decoding, made only once an escape is there to decode, and again only after the text changed.
  let decodings = new Decodings(result);
  const replace = (next: string) => {
    if (next !== result) [result, decodings] = [next, new Decodings(next)];
  };
  for (const secret of secrets) {
    if (!secret) continue;
    // Most texts hold no secret: they are left alone at the cost of one search (the proxy redacts every answer). A
    // text with escapes is searched as it came only for a secret that holds what reads as one ("k%41y…"): decoding
    // would hide it; any other secret is found in the decoded text, where an escape beside it counts as its character.
    if ((!decodings.escaped || ESCAPE.test(secret)) && result.includes(secret))
      replace(redactOne(result, secret, undefined));
    if (!decodings.escaped) continue;
    const needle = bytesOf(secret);
    for (let depth = 1; depth <= MOST_DECODINGS; depth++) {
      const level = decodings.at(depth);
      if (!level) break;
      if (level.bytes.includes(needle)) replace(redactOne(result, secret, level));
    }
  }
  return result;
}
