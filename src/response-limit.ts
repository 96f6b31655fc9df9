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
export async function readLimited(body: ReadableStream<Uint8Array> | null | undefined, max: number): Promise<LimitedBody> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let room = max;
  let cut = false;
  const reader = body?.getReader();
  for (let chunk; reader && !(chunk = await reader.read()).done; ) {
    // A stream made by hand (an injected fetch, a mock) may yield anything; what it yields is counted as bytes.
    const value = (chunk.value instanceof Uint8Array ? chunk.value : new TextEncoder().encode(String(chunk.value))) as Uint8Array<ArrayBuffer>;
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

// The error answers whose body was cut at the limit, with the limit: the rest of the body was never read.
const cuts = new WeakMap<Response, number>();

/** The limit an error answer's body was cut at by `limitErrorBodies`, or undefined when it was read whole. */
export const cutAt = (response: Response): number | undefined => cuts.get(response);

/**
 * `fetch` whose error answers (outside 2xx, read by openapi-fetch itself) carry at most `max` bytes of body, read
 * now; `cutAt` says when there was more. A 2xx answer passes untouched: its reader reads it with `readLimited`.
 */
export function limitErrorBodies<Input, Init>(fetch: (input: Input, init?: Init) => Promise<Response>, max: number): (input: Input, init?: Init) => Promise<Response> {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.ok || !response.body) return response;
    const { bytes, cut } = await readLimited(response.body, max);
    const limited = new Response(bytes, response);
    if (cut) cuts.set(limited, max);
    return limited;
  };
}
