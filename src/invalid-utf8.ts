const lossy = new TextDecoder();
const encoder = new TextEncoder();

/** Bytes as text, each sequence that is not UTF-8 shown as U+FFFD: for what a message quotes of a body, never for data. */
export const decodeLossy = (bytes: Uint8Array): string => lossy.decode(bytes);

const hex = (byte: number) => `\\x${byte.toString(16).toUpperCase().padStart(2, "0")}`;

/** Bytes as a message can show them: printable ASCII as it is, every other byte escaped (`\xE9`). */
export const escapeBytes = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) =>
    byte >= 0x20 && byte < 0x7f && byte !== 0x5c ? String.fromCharCode(byte) : hex(byte),
  ).join("");

/**
 * Where the bytes stop being UTF-8 (RFC 3629), with the bytes around that place escaped, for a message; undefined
 * when they are UTF-8 throughout.
 */
export function invalidUtf8(bytes: Uint8Array): string | undefined {
  // The lossy decoder marks each bad sequence with U+FFFD; one that the bytes themselves spell (EF BF BD) is no error.
  const text = decodeLossy(bytes);
  let offset = 0;
  let from = 0;
  for (let at = text.indexOf("\uFFFD"); at >= 0; at = text.indexOf("\uFFFD", at + 1)) {
    offset += encoder.encode(text.slice(from, at)).length;
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) {
      return `byte ${hex(bytes[offset]!)} at offset ${offset}: ${escapeBytes(bytes.subarray(Math.max(0, offset - 24), offset + 8))}`;
    }
    offset += 3;
    from = at + 1;
  }
  return undefined;
}
