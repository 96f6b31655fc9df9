import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { decodeLossy, invalidUtf8 } from "../../src/invalid-utf8.ts";
import type { CapturedBody } from "./forward.ts";

/** A body as the checks read it, or why it cannot be read whole. */
export type DecodedBody = { text: string; invalidUtf8?: string | undefined } | { unchecked: string };

const DECODERS: Record<string, (bytes: Uint8Array, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  "x-gzip": gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The captured body as text, decoded from its Content-Encoding within `maxBytes` (after decompression, as the client
 * and the suite count). A body over the limit, or one that does not decode, is not judged: the app got it whole, and
 * the report says it was not checked.
 */
export function decodeBody(body: CapturedBody, contentEncoding: string | undefined, maxBytes: number): DecodedBody {
  if (body.cut) return { unchecked: `the body is over ${maxBytes} bytes (FILE_LIBRARY_MAX_RESPONSE_BYTES)` };
  let bytes: Uint8Array = body.bytes;
  const codings = (contentEncoding ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding && coding !== "identity");
  // Codings are listed in the order they were applied: undone from the last.
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode) return { unchecked: `the body is encoded as ${coding}, which the proxy does not decode` };
    try {
      bytes = decode(bytes, { maxOutputLength: maxBytes });
    } catch (error) {
      const over = (error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError;
      return {
        unchecked: over
          ? `the body is over ${maxBytes} bytes once decoded (FILE_LIBRARY_MAX_RESPONSE_BYTES)`
          : `the body does not decode as ${coding}`,
      };
    }
  }
  // The BOM kept: json_well_formed judges it (RFC 8259 8.1: JSON must not start with one).
  const text = decodeLossy(bytes);
  return { text, invalidUtf8: text.includes("\uFFFD") ? invalidUtf8(bytes) : undefined };
}
