import { encoder } from "./invalid-utf8.js";

/** The most bytes read from one answer, unless told otherwise; see `ClientOptions.maxResponseBytes`. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1_048_576;

/** A body as read: at most the limit's bytes, and whether there was more (never read). */
export interface LimitedBody {
  bytes: Uint8Array<ArrayBuffer>;
  cut: boolean;
}

/**
 * Reads a body (as it arrives, decompressed) up to `max` bytes. Past it the rest is not read and the stream is
 * cancelled, so the connection is closed, not reused. A body of one chunk, the common small answer, is not copied.
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null | undefined,
  max: number,
): Promise<LimitedBody> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let room = max;
  let cut = false;
  const reader = body?.getReader();
  for (let chunk; reader && !(chunk = await reader.read()).done; ) {
    // A stream made by hand (an injected fetch, a mock) may yield anything; what it yields is counted as bytes.
    const value = (
      chunk.value instanceof Uint8Array ? chunk.value : encoder.encode(String(chunk.value))
    ) as Uint8Array<ArrayBuffer>;
    cut = value.byteLength > room;
    chunks.push(cut ? value.subarray(0, room) : value);
    room -= value.byteLength;
    if (cut) {
      void reader.cancel().catch(() => {});
      break;
    }
  }
  return { bytes: chunks.length === 1 ? chunks[0]! : new Uint8Array(await new Blob(chunks).arrayBuffer()), cut };
}
