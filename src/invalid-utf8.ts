// A byte-order mark is kept: dropped, it would leave the text three bytes short of the bytes it was read from.
const lossy = new TextDecoder(undefined, { ignoreBOM: true });
/** One UTF-8 encoder for the client. */
export const encoder = new TextEncoder();

/**
 * Bytes as text, each sequence that is not UTF-8 shown as U+FFFD: data only once invalidUtf8 found none (a 2xx body),
 * else for what a message quotes of a body.
 */
export const decodeLossy = (bytes: Uint8Array): string => lossy.decode(bytes);

const hex = (byte: number) => `\\x${byte.toString(16).toUpperCase().padStart(2, "0")}`;

/** Bytes as a message can show them: printable ASCII as it is, every other byte escaped (`\xE9`). */
export const escapeBytes = (bytes: Uint8Array): string =>
  Array.from(bytes, (byte) =>
    byte >= 0x20 && byte < 0x7f && byte !== 0x5c ? String.fromCharCode(byte) : hex(byte),
  ).join("");

/**
 * Where the bytes stop being UTF-8 (RFC 3629), with the bytes around that place escaped, for a message; undefined
 * when they are UTF-8 throughout. `text` is the bytes as decodeLossy reads them, when the caller has it already.
 */
export function invalidUtf8(bytes: Uint8Array, text: string = decodeLossy(bytes)): string | undefined {
  // Decoded with each bad sequence as U+FFFD and encoded back, the bytes are the same up to the first bad sequence (a
  // U+FFFD that the bytes themselves spell comes back as itself). Where they differ is inside the U+FFFD that stands for
  // it: its first byte is where the sequence starts.
  const back = encoder.encode(text);
  let offset = back.findIndex((byte, at) => byte !== bytes[at]);
  if (offset < 0) return undefined;
  while ((back[offset]! & 0xc0) === 0x80) offset--;
  return `byte ${hex(bytes[offset]!)} at offset ${offset}: ${escapeBytes(bytes.subarray(Math.max(0, offset - 24), offset + 8))}`;
}
